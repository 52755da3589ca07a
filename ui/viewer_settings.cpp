#include "ui/viewer_settings.h"

#include "src/core/error.h"

namespace sv {

ViewKind parse_view_kind(const std::string& name) {
  for (ViewKind kind : {ViewKind::Left, ViewKind::Right, ViewKind::Disparity, ViewKind::Blend,
                        ViewKind::Confidence, ViewKind::DisparityB, ViewKind::Difference,
                        ViewKind::Cloud}) {
    if (name == view_kind_name(kind)) return kind;
  }
  throw InputError("unknown view \"" + name + "\" (left, right, disparity, blend, confidence, disparity-b, "
                   "difference, 3d)");
}

const char* view_kind_name(ViewKind kind) {
  switch (kind) {
    case ViewKind::Left: return "left";
    case ViewKind::Right: return "right";
    case ViewKind::Disparity: return "disparity";
    case ViewKind::Blend: return "blend";
    case ViewKind::Confidence: return "confidence";
    case ViewKind::DisparityB: return "disparity-b";
    case ViewKind::Difference: return "difference";
    case ViewKind::Cloud: return "3d";
  }
  return "?";
}

CloudColour parse_cloud_colour(const std::string& name) {
  for (CloudColour c : {CloudColour::Image, CloudColour::Depth, CloudColour::Confidence}) {
    if (name == cloud_colour_name(c)) return c;
  }
  throw InputError("unknown point colour \"" + name + "\" (image, depth, confidence)");
}

const char* cloud_colour_name(CloudColour colour) {
  switch (colour) {
    case CloudColour::Image: return "image";
    case CloudColour::Depth: return "depth";
    case CloudColour::Confidence: return "confidence";
  }
  return "?";
}

bool shows_disparity(ViewKind kind) {
  return kind == ViewKind::Disparity || kind == ViewKind::Blend || kind == ViewKind::DisparityB;
}

}  // namespace sv
