#pragma once
// Which LoRA adapters a generation uses: the ones the request names, or one
// chosen from the prompt by catalogue keywords. A pure function over a
// catalogue snapshot, so create and estimate resolve alike and tests need no actor.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "schema/checked.hpp"
#include "schema/generation_request.hpp"
#include "schema/records.hpp"
#include "core/described.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// How the adapters were chosen (`lora_selection` on the record).
enum class lora_selection : uint8_t {
  requested, ///< `"explicit"`: the body had `lora_id` or `loras`
  automatic, ///< `"auto"`: picked from the prompt by keywords
  none,      ///< `"none"`: nothing named and no keyword matched
};
BOOST_DESCRIBE_ENUM(lora_selection, requested, automatic, none)

/// The wire name: `explicit`, `auto` or `none`.
std::string_view to_string(lora_selection s);

/// The value with this wire name, if any (for stored records).
std::optional<lora_selection> lora_selection_from_name(std::string_view name);

/// The weight of an automatically chosen adapter: full strength, as if the
/// client had named it in `lora_id`.
inline constexpr double auto_lora_weight = 1.0;

/// One adapter of a generation, as the record echoes it.
struct resolved_lora {
  std::string lora_id; ///< `lora_...`
  std::string slug;
  double weight = 1.0;
};
SVC_DESCRIBE(resolved_lora, (lora_id, slug, weight))
SVC_VIEW_KEY(resolved_lora, lora_id, "lora")

/// The adapters of a generation and how they were chosen.
struct lora_resolution {
  std::vector<resolved_lora> loras; ///< in request order; empty for `none`
  lora_selection selection = lora_selection::none;
};

/// Whether the adapter with this slug fits the request's model.
using lora_fit = std::function<bool(const std::string& slug)>;

/// Resolves `r.lora_id` / `r.loras` against `catalogue` (each name matches an
/// id or a slug exactly), or, when neither is given, picks the fitting entry
/// with the most keywords found in the prompt (ties: earlier in `catalogue`).
/// Fails with `invalid_parameter` naming `lora_id` or `loras[i].lora` for an
/// unknown name, one that does not fit, or a second mention of the same adapter.
checked<lora_resolution> resolve_loras(const generation_request& r, const std::vector<lora_record>& catalogue,
                                       const lora_fit& fits);

/// How many distinct `keywords` occur in `prompt` as whole words or phrases,
/// ignoring ASCII case; a word character is a letter, digit or non-ASCII byte.
std::size_t keyword_matches(std::string_view prompt, const std::vector<std::string>& keywords);

} // namespace svc::schema
