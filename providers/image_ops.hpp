#pragma once
// Neighbourhood operations the style passes share: blurs with a cost that
// does not grow with the radius, luminance, edge strength and resampling.

#include <vector>

#include "providers/image.hpp"
#include "providers/packed_image.hpp"

namespace svc::providers {

/// Blurs in place with three box passes (close to a Gaussian of sigma ~ radius).
/// Radii above a few pixels run on a downscaled copy, so cost stays O(pixels).
void blur(image& img, float radius);

/// Blurs a plane in place; same shape and cost as `blur`.
void blur(plane& p, float radius);

/// Perceived brightness of every pixel.
plane luma_plane(const image& img);

/// Sobel gradient magnitude of `p` (0 on flat areas, about 1 across a black-white step).
plane edge_plane(const plane& p);

/// Half the width and height (rounded up), each pixel the mean of up to 2x2.
image half_size(const image& img);

/// `img` stretched or shrunk to w x h by bilinear interpolation.
image resize(const image& img, int w, int h);

/// Bilinear samples of a region of `img` (an `image`, or a `packed_image`)
/// at out_width x out_height pixels, a row at a time, so a camera moving over
/// a still never needs a whole frame in memory. Samples outside `img` take
/// its edge. Meant for shrinking by less than 2x or enlarging.
template <class Pixels>
class region_sampler {
public:
  /// Samples of `img`, which outlives the sampler; sizes >= 1.
  region_sampler(const Pixels& img, int out_width, int out_height);
  /// Frames the w x h region whose top-left corner is (x, y), in pixels of
  /// `img`, fractions allowed; rows come from it until the next call.
  void frame(float x, float y, float w, float h);
  /// Fills `dst`, out_width pixels, with row j (0 .. out_height - 1).
  void row(int j, rgb* dst) const;

private:
  const Pixels& img_;
  int out_width_, out_height_;
  float y_ = 0.f, sy_ = 1.f;
  std::vector<int> x0s_, x1s_; // per output column: the two source columns it blends
  std::vector<float> txs_;     // and the weight of the second
};

extern template class region_sampler<image>;
extern template class region_sampler<packed_image>;

} // namespace svc::providers
