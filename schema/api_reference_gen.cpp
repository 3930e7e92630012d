// Build tool: reads schema/openapi.yaml and writes a C++ source that defines
// svc::schema::openapi_yaml() (the file's bytes) and api_reference_html() (the
// /docs page rendered from it). Rendering at build time keeps a YAML parser
// out of svcd.
//   svc-api-reference-gen <openapi.yaml> <output.cpp>
#include "schema/html_escape.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using svc::schema::escape_html;

const std::vector<std::string> methods{"get", "put", "post", "patch", "delete", "head", "options"};

std::string text(const YAML::Node& n) { return n && n.IsScalar() ? n.Scalar() : std::string{}; }

std::string upper(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// A `$ref: '#/components/...'` replaced by what it points to.
YAML::Node resolved(const YAML::Node& root, const YAML::Node& n) {
  if (!n.IsMap() || !n["$ref"])
    return n;
  auto ref = n["$ref"].Scalar();
  YAML::Node at = root;
  std::stringstream parts{ref.substr(2)};
  // reset() rebinds the handle; `at = at[part]` would overwrite the node it refers to.
  for (std::string part; std::getline(parts, part, '/');)
    at.reset(at[part]);
  if (!at)
    throw std::runtime_error("$ref points nowhere: " + ref);
  return at;
}

// A schema in a few words: its type, a referenced component's name, or its enum.
std::string schema_words(const YAML::Node& schema) {
  if (!schema)
    return "";
  if (schema["$ref"]) {
    auto ref = schema["$ref"].Scalar();
    return ref.substr(ref.rfind('/') + 1);
  }
  if (schema["enum"]) {
    std::string out;
    for (auto v : schema["enum"])
      out += (out.empty() ? "" : " | ") + text(v);
    return out;
  }
  if (schema["type"] && schema["type"].IsSequence()) {
    std::string out;
    for (auto t : schema["type"])
      out += (out.empty() ? "" : " or ") + text(t);
    return out;
  }
  return text(schema["type"]);
}

// Markdown-ish descriptions shown as text with their line breaks kept (CSS pre-line).
std::string description_block(const YAML::Node& n) {
  auto d = text(n);
  return d.empty() ? "" : "<div class=\"d\">" + escape_html(d) + "</div>\n";
}

std::string parameters_table(const YAML::Node& root, const YAML::Node& path_item, const YAML::Node& op) {
  std::string rows;
  for (auto* list : {&path_item, &op}) {
    if (!(*list)["parameters"])
      continue;
    for (auto declared : (*list)["parameters"]) {
      auto p = resolved(root, declared);
      rows += "<tr><td><code>" + escape_html(text(p["name"])) + "</code></td><td>" + escape_html(text(p["in"]))
              + "</td><td>" + (p["required"] && p["required"].as<bool>() ? "yes" : "no") + "</td><td>"
              + escape_html(schema_words(p["schema"])) + "</td><td class=\"d\">"
              + escape_html(text(p["description"])) + "</td></tr>\n";
    }
  }
  if (rows.empty())
    return "";
  return "<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>\n"
         + rows + "</table>\n";
}

std::string responses_table(const YAML::Node& root, const YAML::Node& op) {
  std::string rows;
  for (auto entry : op["responses"]) {
    auto r = resolved(root, entry.second);
    std::string types;
    if (r["content"])
      for (auto media : r["content"]) {
        auto schema = schema_words(media.second["schema"]);
        types += (types.empty() ? "" : ", ") + media.first.Scalar() + (schema.empty() ? "" : " (" + schema + ")");
      }
    rows += "<tr><td>" + escape_html(entry.first.Scalar()) + "</td><td>" + escape_html(types)
            + "</td><td class=\"d\">" + escape_html(text(r["description"])) + "</td></tr>\n";
  }
  return "<table><tr><th>Status</th><th>Body</th><th>Description</th></tr>\n" + rows + "</table>\n";
}

std::string operation_html(const YAML::Node& root, const std::string& path, const YAML::Node& path_item,
                           const std::string& method, const YAML::Node& op) {
  auto id = text(op["operationId"]);
  std::string html = "<article id=\"" + escape_html(id) + "\">\n<h3><span class=\"m\">" + upper(method)
                     + "</span> <code>" + escape_html(path) + "</code></h3>\n";
  html += "<p><b>" + escape_html(text(op["summary"])) + "</b>";
  if (op["x-scope"])
    html += " &middot; scope <code>" + escape_html(text(op["x-scope"])) + "</code>";
  if (op["x-rate-limit-bucket"])
    html += " &middot; bucket <code>" + escape_html(text(op["x-rate-limit-bucket"])) + "</code>";
  if (op["deprecated"] && op["deprecated"].as<bool>())
    html += " &middot; deprecated";
  html += "</p>\n" + description_block(op["description"]) + parameters_table(root, path_item, op)
          + responses_table(root, op) + "</article>\n";
  return html;
}

std::string page(const YAML::Node& root) {
  // Operations by their first tag, in the order of the top-level `tags`; untagged ones last.
  std::vector<std::string> tag_order;
  std::map<std::string, std::string> tag_descriptions, sections;
  for (auto t : root["tags"]) {
    tag_order.push_back(text(t["name"]));
    tag_descriptions[text(t["name"])] = text(t["description"]);
  }
  for (auto entry : root["paths"]) {
    auto path = entry.first.Scalar();
    for (auto& method : methods) {
      auto op = entry.second[method];
      if (!op)
        continue;
      auto tag = op["tags"] && op["tags"].size() > 0 ? text(op["tags"][0]) : std::string{"other"};
      if (!tag_descriptions.count(tag)) {
        tag_order.push_back(tag);
        tag_descriptions[tag] = "";
      }
      sections[tag] += operation_html(root, path, entry.second, method, op);
    }
  }
  auto title = text(root["info"]["title"]) + " " + text(root["info"]["version"]);
  std::string html =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape_html(title)
    + " reference</title>\n<style>body{font:15px/1.45 system-ui,sans-serif;max-width:64rem;margin:2rem auto;"
      "padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}article{border-top:1px solid #ddd;padding:.4rem 0}"
      "table{border-collapse:collapse;margin:.4rem 0;width:100%}th,td{border:1px solid #ddd;padding:.2rem .4rem;"
      "text-align:left;vertical-align:top}.d{white-space:pre-line}.m{font-weight:bold;color:#05a}"
      "nav a{margin-right:.8rem}</style>\n</head><body>\n<h1>" + escape_html(title) + "</h1>\n<p>"
    + escape_html(text(root["info"]["summary"]))
    + "</p>\n<p>The contract itself: <a href=\"/openapi.yaml\">/openapi.yaml</a> &middot; error codes: "
      "<a href=\"/docs/errors\">/docs/errors</a></p>\n<nav>";
  for (auto& tag : tag_order)
    if (sections.count(tag))
      html += "<a href=\"#tag-" + escape_html(tag) + "\">" + escape_html(tag) + "</a>";
  html += "</nav>\n" + description_block(root["info"]["description"]);
  for (auto& tag : tag_order)
    if (sections.count(tag))
      html += "<section id=\"tag-" + escape_html(tag) + "\">\n<h2>" + escape_html(tag) + "</h2>\n"
              + description_block(YAML::Node{tag_descriptions[tag]}) + sections[tag] + "</section>\n";
  return html + "</body></html>\n";
}

// `bytes` as the initializer of a char array: exact for any byte, unlike a raw string literal.
std::string char_array(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size() * 5);
  static const char* digits = "0123456789abcdef";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto b = static_cast<unsigned char>(bytes[i]);
    out += "0x";
    out += digits[b >> 4];
    out += digits[b & 15];
    out += (i % 24 == 23) ? ",\n" : ",";
  }
  return out + "0";
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: svc-api-reference-gen <openapi.yaml> <output.cpp>\n";
    return 2;
  }
  try {
    std::ifstream in{argv[1], std::ios::binary};
    if (!in)
      throw std::runtime_error(std::string{"cannot read "} + argv[1]);
    std::ostringstream yaml;
    yaml << in.rdbuf();
    auto html = page(YAML::Load(yaml.str()));
    std::ofstream out{argv[2], std::ios::binary};
    out << "// Generated by svc-api-reference-gen from schema/openapi.yaml; do not edit.\n"
        << "#include \"schema/api_reference.hpp\"\n\nnamespace svc::schema {\nnamespace {\n"
        << "const char yaml_bytes[] = {\n" << char_array(yaml.str()) << "};\n"
        << "const char html_bytes[] = {\n" << char_array(html) << "};\n} // namespace\n\n"
        << "std::string_view openapi_yaml() { return {yaml_bytes, sizeof yaml_bytes - 1}; }\n"
        << "std::string_view api_reference_html() { return {html_bytes, sizeof html_bytes - 1}; }\n\n"
        << "} // namespace svc::schema\n";
    if (!out)
      throw std::runtime_error(std::string{"cannot write "} + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "svc-api-reference-gen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
