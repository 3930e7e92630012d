#include "core/time_format.hpp"

#include <cstdio>
#include <ctime>

namespace svc::core {
namespace {

// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size())
    return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

bool valid_date(int y, int m, int d) {
  static constexpr int month_days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1970 || m < 1 || m > 12 || d < 1 || d > month_days[m - 1])
    return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's
// algorithm): format_iso8601 runs for every timestamp of every response, and
// glibc's gmtime_r takes its time-zone lock each time.
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
}

std::tm to_utc_tm(time_point t) {
  std::time_t secs = static_cast<std::time_t>(to_unix_seconds(t));
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return tm;
}

} // namespace

int64_t to_unix_seconds(time_point t) {
  auto ms = to_unix_ms(t);
  return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
}

std::string format_iso8601(time_point t) {
  auto secs = to_unix_seconds(t);
  auto days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
  auto second_of_day = static_cast<int>(secs - days * 86400);
  int64_t year;
  unsigned month, day;
  civil_from_days(days, year, month, day);
  auto ms = to_unix_ms(t) % 1000;
  if (ms < 0)
    ms += 1000;
  // Digit by digit: this runs for every timestamp of every response.
  std::string out = "0000-00-00T00:00:00.000Z";
  auto put = [&out](std::size_t pos, int value, int width) {
    for (int i = width - 1; i >= 0; --i, value /= 10)
      out[pos + static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
  };
  put(0, static_cast<int>(year), 4);
  put(5, static_cast<int>(month), 2);
  put(8, static_cast<int>(day), 2);
  put(11, second_of_day / 3600, 2);
  put(14, second_of_day / 60 % 60, 2);
  put(17, second_of_day % 60, 2);
  put(20, static_cast<int>(ms), 3);
  return out;
}

// A time_point counts nanoseconds in 64 bits, which ends in April 2262: later
// dates would wrap into the past, so they are refused as malformed.
constexpr int max_parsed_year = 2261;

std::optional<time_point> parse_date(std::string_view s) {
  int y, m, d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !digits(s, 0, 4, y) || !digits(s, 5, 2, m)
      || !digits(s, 8, 2, d) || !valid_date(y, m, d) || y < 1970 || y > max_parsed_year)
    return std::nullopt;
  return from_unix_ms(days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)) * 86400000);
}

std::optional<time_point> parse_iso8601(std::string_view s) {
  if (s.size() < 20 || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  auto day = parse_date(s.substr(0, 10));
  int hh, mm, ss;
  if (!day || !digits(s, 11, 2, hh) || !digits(s, 14, 2, mm) || !digits(s, 17, 2, ss) || hh > 23
      || mm > 59 || ss > 60)
    return std::nullopt;
  std::size_t pos = 19;
  int ms = 0;
  if (pos < s.size() && s[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
      ++pos;
    auto n = pos - start;
    if (n == 0 || n > 9)
      return std::nullopt;
    int frac = 0;
    digits(s, start, n < 3 ? n : 3, frac);
    ms = n == 1 ? frac * 100 : n == 2 ? frac * 10 : frac;
  }
  auto zone = s.substr(pos);
  if (zone != "Z" && zone != "+00:00")
    return std::nullopt;
  return *day + std::chrono::milliseconds{((hh * 60 + mm) * 60 + ss) * 1000LL + ms};
}

std::string format_http_date(time_point t) {
  auto tm = to_utc_tm(t);
  char buf[40];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

} // namespace svc::core
