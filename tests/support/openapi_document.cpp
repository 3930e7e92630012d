#include "openapi_document.hpp"

#include <yaml-cpp/yaml.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace svc::test {
namespace {

// YAML 1.2 core schema for plain (unquoted) scalars; anything else is a string.
boost::json::value plain_scalar(const std::string& s) {
  static const std::regex null_form{"~|null|Null|NULL"};
  static const std::regex true_form{"true|True|TRUE"};
  static const std::regex false_form{"false|False|FALSE"};
  static const std::regex int_form{"[-+]?[0-9]+"};
  static const std::regex float_form{R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)"};
  if (s.empty() || std::regex_match(s, null_form))
    return nullptr;
  if (std::regex_match(s, true_form))
    return true;
  if (std::regex_match(s, false_form))
    return false;
  try {
    if (std::regex_match(s, int_form))
      return std::stoll(s);
    if (std::regex_match(s, float_form))
      return std::stod(s);
  } catch (const std::out_of_range&) {
    // A number too large for int64/double stays the text it was.
  }
  return boost::json::string{s};
}

boost::json::value to_json(const YAML::Node& node) {
  switch (node.Type()) {
  case YAML::NodeType::Map: {
    boost::json::object out;
    for (auto& entry : node) {
      auto key = entry.first.as<std::string>();
      // YAML forbids repeated keys; yaml-cpp keeps both, which would hide one of them here.
      if (out.contains(key))
        throw std::runtime_error("line " + std::to_string(entry.first.Mark().line + 1) + ": repeated key " + key);
      out[key] = to_json(entry.second);
    }
    return out;
  }
  case YAML::NodeType::Sequence: {
    boost::json::array out;
    for (auto& item : node)
      out.push_back(to_json(item));
    return out;
  }
  case YAML::NodeType::Scalar:
    // yaml-cpp tags plain scalars "?" and quoted or block ones "!".
    return node.Tag() == "?" ? plain_scalar(node.Scalar()) : boost::json::string{node.Scalar()};
  case YAML::NodeType::Null:
  case YAML::NodeType::Undefined:
    break;
  }
  return nullptr;
}

} // namespace

boost::json::value parse_yaml_as_json(const std::string& text, const std::string& what) {
  try {
    return to_json(YAML::Load(text));
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(what + ": " + e.what());
  }
}

boost::json::value load_yaml_as_json(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_yaml_as_json(text.str(), path);
}

} // namespace svc::test
