#pragma once
// The models a node offers (`GET /v1/models`): what each one makes, the sizes
// and lengths it takes, its prices per API version and the LoRAs that fit it.
// Built once at start from `--engines` (or from the built-in renderer), read
// by create, estimate and pricing alike, never changed while svcd runs.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/checked.hpp"
#include "schema/generation_request.hpp"
#include "schema/pricing.hpp"

namespace svc::schema {

/// `image` or `video`: what a model makes.
enum class model_kind { image, video };

/// The wire name of a kind.
std::string_view to_string(model_kind k);

/// A width x height pair.
struct frame_size {
  int width = 0;
  int height = 0;
};

/// A priced item of a model (`image`, `image_steps`, `lora`, `video`), as
/// the version tables have them, so one quote function serves both.
struct model_price {
  std::string api_version;             ///< the Svc-Version this price was published with
  std::map<std::string, int64_t> items; ///< item -> credits per unit (the table's units)
};

/// One model.
struct model_entry {
  std::string id;                  ///< `sdxl`, `wan-2.2-t2v`: what `model` names
  model_kind kind = model_kind::image;
  std::string description;         ///< for `GET /v1/models`
  std::vector<std::string> engines; ///< names of the engines that serve it
  frame_size default_size;         ///< when the request names none
  frame_size max_size;             ///< larger sides are 400 `invalid_parameter`
  int max_steps = 100;             ///< images
  int default_duration = 4;        ///< videos, seconds
  int max_duration = 10;           ///< videos, seconds
  int default_fps = 24;            ///< videos
  int max_fps = 30;                ///< videos
  int min_fps = 8;                 ///< videos
  /// Prices by the version that published them, oldest first. Empty: the
  /// version's own table, as without a catalogue.
  std::vector<model_price> prices;
  bool is_default = false;         ///< the default of its kind (else the first of that kind)
};

/// A LoRA the catalogue file places: the file an engine loads for it and
/// the base models it fits. Slugs it does not name fit only the models that
/// take slugs (the built-in renderer, A1111).
struct model_lora {
  std::string slug;
  std::string file;                ///< the engine's file name (`watercolor_sdxl.safetensors`)
  std::vector<std::string> models; ///< ids of the models it fits
};

/// Every model and placed LoRA; immutable once built.
class model_catalogue {
public:
  /// A catalogue of `models` (the first of each kind marked `is_default`,
  /// else the first of each kind, is that kind's default) and `loras`;
  /// `slug_models` take any catalogue slug (their engines read slugs).
  model_catalogue(std::vector<model_entry> models, std::vector<model_lora> loras,
                  std::vector<std::string> slug_models);

  /// Every model, in file order.
  const std::vector<model_entry>& models() const { return models_; }

  /// The model with this id, if any.
  const model_entry* find(std::string_view id) const;

  /// The model a request of `kind` without `model` gets; null when none makes that kind.
  const model_entry* default_for(model_kind kind) const;

  /// The placed LoRA of `slug`, if the file names it.
  const model_lora* lora(std::string_view slug) const;

  /// The LoRAs the file places.
  const std::vector<model_lora>& placed_loras() const { return loras_; }

  /// Whether `model` takes any catalogue slug (its engines read slugs).
  bool takes_any_slug(const model_entry& model) const;

  /// Whether the LoRA `slug` may be used with `model`.
  bool lora_fits(std::string_view slug, const model_entry& model) const;

private:
  std::vector<model_entry> models_;
  std::vector<model_lora> loras_;
  std::vector<std::string> slug_models_; // models whose engines take any slug
  std::map<model_kind, std::size_t> defaults_;
};

/// The catalogue without `--engines`: one model of each kind named
/// `builtin_id`-image / -video, priced by the version tables, taking any slug.
model_catalogue builtin_catalogue(std::string_view builtin_id);

/// Resolves the body's `model` (absent: the kind's default), fills in the
/// model's defaults for what the body left out, and checks the request's
/// size and steps against the model. Fails with `invalid_parameter` naming
/// `model`, `width`, `height` or `steps`.
checked<const model_entry*> resolve_model(const model_catalogue& catalogue, image_request& r);

/// The same for a video; also checks `duration_seconds` and `fps`.
checked<const model_entry*> resolve_model(const model_catalogue& catalogue, video_request& r);

/// The price items a request of `model` pays at `api_version`: the model's
/// newest price published at or before it, else the one that introduced the
/// model, else the version's own table.
price_table model_price_table(const model_entry& model, std::string_view api_version);

} // namespace svc::schema
