#pragma once
// Paints a planned landscape: sky gradient, sun or moon, clouds and stars,
// layered mountain ridges, a skyline of trees or buildings, and ground or a
// reflecting lake. The base image every LoRA style then transforms.

#include <functional>

#include "providers/cancel_token.hpp"
#include "providers/image.hpp"
#include "providers/scene_plan.hpp"

namespace svc::providers {

/// Paints `plan` over all of `img` (any size), top row first. Checks `cancel`
/// every few rows and returns false once it fires (the image is then partial).
/// `progress` (may be empty) receives the painted fraction 0..1.
bool paint_scene(const scene_plan& plan, image& img, const cancel_token& cancel,
                 const std::function<void(float)>& progress);

} // namespace svc::providers
