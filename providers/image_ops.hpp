#pragma once
// Neighbourhood operations the style passes share: blurs with a cost that
// does not grow with the radius, luminance, edge strength and resampling.

#include "providers/image.hpp"

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

/// Fills all of `out` (its size unchanged) from the w x h region of `img` whose
/// top-left corner is (x, y), in pixels, fractions allowed, by bilinear
/// interpolation; samples outside `img` take its edge. Meant for shrinking by
/// less than 2x or enlarging; a camera moving over a still.
void resample(const image& img, float x, float y, float w, float h, image& out);

} // namespace svc::providers
