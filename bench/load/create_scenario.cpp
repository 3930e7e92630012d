#include "bench/load/create_scenario.hpp"

#include "bench/load/key_pacers.hpp"

namespace svc::bench {
namespace {

class create_source : public load_source {
public:
  create_source(const target& server, const std::vector<std::string>& keys, const image_spec& image, bool paced)
    : pacers_(keys.size(), paced), paced_(paced) {
    for (auto& key : keys)
      requests_.push_back(create_image_request(server, key, image));
  }

  planned_request next(std::size_t connection, steady::time_point now) override {
    planned_request p;
    p.key = paced_ ? connection % requests_.size() : next_key_++ % requests_.size();
    p.not_before = pacers_.claim(p.key, now);
    if (p.not_before <= now)
      p.request = requests_[p.key];
    return p;
  }

  bool judge(const planned_request& p, const exchange& x) override {
    pacers_.observe(p.key, x);
    return !x.error && x.response.result_int() == 201;
  }

private:
  std::vector<std::string> requests_; ///< by key
  key_pacers pacers_;                 ///< by key: `images_post`
  bool paced_;
  std::size_t next_key_ = 0;
};

} // namespace

const std::vector<std::string>& create_operations() {
  static const std::vector<std::string> names{"create"};
  return names;
}

std::unique_ptr<load_source> make_create_source(const target& server, const std::vector<std::string>& keys,
                                                const image_spec& image, bool paced) {
  return std::make_unique<create_source>(server, keys, image, paced);
}

} // namespace svc::bench
