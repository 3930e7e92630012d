#!/usr/bin/env bash
# `cmake --install` into a temp prefix ships what packaging/ promises: both
# binaries (their --version), the example config (the installed svcd accepts
# it), man pages groff renders without a warning (and that name every svcctl
# command), the systemd unit (systemd-analyze verify finds no fault, its
# ExecStart binary and man pages included), CHANGELOG.md and LICENSE.
# usage: install_test.sh BUILD_DIR EXPECTED_VERSION
set -euo pipefail
build="$1" version="$2"
prefix="$(mktemp -d /tmp/svc-install-test-XXXXXX)"
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/svcd bin/svcctl etc/svc/svcd.conf share/man/man1/svcd.1 share/man/man1/svcctl.1 \
         lib/systemd/system/svcd.service share/doc/svc/CHANGELOG.md share/doc/svc/LICENSE share/doc/svc/README.md \
         share/doc/svc/docs/operating.md share/doc/svc/docs/configuration.md; do
  [ -f "$prefix/$f" ] || fail "missing $f"
done

for bin in svcd svcctl; do
  line="$("$prefix/bin/$bin" --version)"
  [[ "$line" =~ ^$bin\ $version\ \(commit\ [0-9a-f]{7,}\)$|^$bin\ $version\ \(commit\ unknown\)$ ]] ||
    fail "$bin --version printed '$line'"
done

# Every option is in the example, commented out with its default; as shipped it parses.
"$prefix/bin/svcd" --config "$prefix/etc/svc/svcd.conf" --check-config >/dev/null ||
  fail "the installed svcd refuses the installed svcd.conf"
while read -r option; do
  grep -q "^# $option = " "$prefix/etc/svc/svcd.conf" || fail "svcd.conf does not show --$option"
done < <("$prefix/bin/svcd" --print-config-table | sed -n 's/^| `--\([a-z0-9-]*\)`.*/\1/p')

for page in svcd svcctl; do
  warnings="$(groff -man -z -ww "$prefix/share/man/man1/$page.1" 2>&1)"
  [ -z "$warnings" ] || fail "groff warns about $page.1: $warnings"
done
# The man page documents every command svcctl --help lists.
while read -r command; do
  grep -q "^\.B $command\b" "$prefix/share/man/man1/svcctl.1" || fail "svcctl.1 lacks the command '$command'"
done < <("$prefix/bin/svcctl" --help | sed -n 's/^  \([a-z]\+\( [a-z]\+\)\?\) .*/\1/p' | grep -v '^ ')

# --man=no: verify would run man(1) for Documentation=, which the check below does with the installed pages.
unit="$prefix/lib/systemd/system/svcd.service"
grep -q "^ExecStart=$prefix/bin/svcd --config $prefix/etc/svc/svcd.conf " "$unit" || fail "ExecStart does not name the installed paths"
for line in DynamicUser=yes StateDirectory=svc ProtectSystem=strict NoNewPrivileges=yes Restart=on-failure; do
  grep -qx "$line" "$unit" || fail "the unit lacks $line"
done
out="$(systemd-analyze --man=no verify "$unit" 2>&1)" || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns: $out"
for page in svcd svcctl; do
  MANPATH="$prefix/share/man" man -w "$page" >/dev/null 2>&1 || fail "man finds no installed $page(1)"
done
echo "install_test: ok ($prefix)"
