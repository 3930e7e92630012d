#include "clients/smtp_sender.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <string_view>

#include <curl/curl.h>

#include "core/ids.hpp"
#include "clients/libcurl_loader.hpp"

namespace svc::clients {
namespace {

// What of the relay's replies goes into an error string.
constexpr std::size_t max_reported_reply = 300;

// One send's state shared with libcurl's callbacks.
struct transfer {
  std::string text;            ///< the RFC 5322 message
  std::size_t sent = 0;        ///< bytes of `text` libcurl took
  std::string step = "greeting"; ///< what the conversation waits for: the greeting, a command's reply, the message's
  bool quitting = false;       ///< QUIT went out: what follows explains nothing
  std::string reply;           ///< the relay's reply being read, lines joined by " / "
  bool reply_open = false;     ///< the last line read was not the reply's last
  std::string refusal;         ///< the relay's last 4xx or 5xx reply
  std::string refusal_step;    ///< the step it answered
};

size_t read_message(char* buffer, size_t size, size_t count, void* user) {
  auto& t = *static_cast<transfer*>(user);
  auto n = std::min(size * count, t.text.size() - t.sent);
  std::memcpy(buffer, t.text.data() + t.sent, n);
  t.sent += n;
  return n;
}

// The step a command line starts, by its verb; nothing for a line that is
// no command (the credentials of an AUTH exchange: never looked at further).
std::optional<std::string> step_of(std::string_view line) {
  auto verb = line.substr(0, std::min(line.find_first_of(" \r\n"), line.size()));
  for (std::string_view known : {"EHLO", "HELO", "STARTTLS", "AUTH", "DATA", "QUIT"})
    if (verb == known)
      return std::string{verb};
  if (verb == "MAIL")
    return "MAIL FROM";
  if (verb == "RCPT")
    return "RCPT TO";
  return std::nullopt;
}

void read_reply_lines(transfer& t, std::string_view rest) {
  while (!rest.empty()) {
    auto line = rest.substr(0, rest.find('\n'));
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (!t.reply_open)
      t.reply.clear();
    else
      t.reply += " / ";
    for (char ch : line)
      t.reply.push_back(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? ' ' : ch);
    if (t.reply.size() > max_reported_reply)
      t.reply = t.reply.substr(0, max_reported_reply) + "...";
    // A reply's last line says `NNN ` (or just `NNN`); the lines before it `NNN-`.
    t.reply_open = line.size() > 3 && line[3] == '-';
    if (!t.reply_open && !t.quitting && !t.reply.empty() && (t.reply[0] == '4' || t.reply[0] == '5')) {
      t.refusal = t.reply;
      t.refusal_step = t.step;
    }
  }
}

// Follows the conversation for the error string: the relay's replies as
// printable text and the step each answers. Of our side only the verb of a
// command is looked at, never its arguments or the AUTH exchange.
int follow_conversation(CURL*, curl_infotype type, char* data, size_t size, void* user) {
  auto& t = *static_cast<transfer*>(user);
  if (type == CURLINFO_HEADER_IN) {
    read_reply_lines(t, {data, size});
  } else if (type == CURLINFO_HEADER_OUT && !t.quitting) {
    if (auto step = step_of({data, size})) {
      t.quitting = *step == "QUIT";
      if (!t.quitting)
        t.step = *step;
    }
  } else if (type == CURLINFO_DATA_OUT && !t.quitting) {
    t.step = "message";
  }
  return 0;
}

struct easy_deleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct multi_deleter {
  void operator()(CURLM* m) const { curl_multi_cleanup(m); }
};
struct slist_deleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// Runs the transfer until it ends or `deadline` passes. Not curl_easy_perform:
// libcurl 7.88 waits for the reply to the message's end for up to the server
// response timeout whatever CURLOPT_TIMEOUT says. A transfer cut off here is
// removed unfinished, so libcurl closes its connection without a QUIT.
CURLcode perform_until(CURL* easy, std::chrono::steady_clock::time_point deadline) {
  std::unique_ptr<CURLM, multi_deleter> multi{curl_multi_init()};
  if (!multi || curl_multi_add_handle(multi.get(), easy) != CURLM_OK)
    return CURLE_OUT_OF_MEMORY;
  auto result = CURLE_OPERATION_TIMEDOUT;
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi.get(), &running) != CURLM_OK) {
      result = CURLE_SEND_ERROR;
      break;
    }
    int queued = 0;
    if (auto* msg = curl_multi_info_read(multi.get(), &queued); msg != nullptr && msg->msg == CURLMSG_DONE) {
      result = msg->data.result;
      break;
    }
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      break;
    curl_multi_poll(multi.get(), nullptr, 0, static_cast<int>(std::min<int64_t>(left.count(), 1000)), nullptr);
  }
  curl_multi_remove_handle(multi.get(), easy);
  return result;
}

} // namespace

std::string mail_address(std::string_view field) {
  auto addr = field;
  auto open = field.rfind('<');
  if (open != std::string_view::npos) {
    auto close = field.find('>', open);
    if (close == std::string_view::npos)
      return {};
    addr = field.substr(open + 1, close - open - 1);
  }
  while (!addr.empty() && (addr.front() == ' ' || addr.front() == '\t'))
    addr.remove_prefix(1);
  while (!addr.empty() && (addr.back() == ' ' || addr.back() == '\t'))
    addr.remove_suffix(1);
  for (char ch : addr) {
    auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f || ch == '<' || ch == '>')
      return {};
  }
  return std::string{addr};
}

smtp_sender::smtp_sender(smtp_options options, std::shared_ptr<const core::clock> clock)
  : options_(std::move(options)), clock_(std::move(clock)) {}

std::string smtp_sender::send(const core::mail_message& m) {
  auto from = mail_address(m.from);
  auto to = mail_address(m.to);
  if (from.empty())
    return "smtp: no usable sender address in '" + m.from + "'";
  if (to.empty())
    return "smtp: no usable recipient address in '" + m.to + "'";
  if (std::string error; !load_libcurl(error))
    return "smtp: " + error;
  auto now = clock_->now();
  transfer t;
  t.text = core::format_rfc5322(m, now, core::make_ulid(now));

  std::unique_ptr<CURL, easy_deleter> easy{curl_easy_init()};
  if (!easy)
    return "smtp: libcurl could not make a handle";
  std::unique_ptr<curl_slist, slist_deleter> recipients{curl_slist_append(nullptr, ("<" + to + ">").c_str())};
  auto* c = easy.get();
  char error[CURL_ERROR_SIZE] = {};
  auto url = options_.relay.url();
  auto& relay = options_.relay;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); // many threads; the deadline is libcurl's own
  auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
  // Bounds the QUIT after an accepted message, which libcurl waits for blocking.
  curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT,
                   static_cast<long>(std::chrono::ceil<std::chrono::seconds>(options_.timeout).count()));
  curl_easy_setopt(c, CURLOPT_FORBID_REUSE, 1L); // one connection per message
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_USE_SSL,
                   relay.security == core::smtp_security::none ? static_cast<long>(CURLUSESSL_NONE)
                                                               : static_cast<long>(CURLUSESSL_ALL));
  if (!options_.ca_file.empty())
    curl_easy_setopt(c, CURLOPT_CAINFO, options_.ca_file.c_str());
  if (!relay.user.empty()) {
    curl_easy_setopt(c, CURLOPT_USERNAME, relay.user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, options_.password.c_str());
  }
  curl_easy_setopt(c, CURLOPT_MAIL_FROM, ("<" + from + ">").c_str());
  curl_easy_setopt(c, CURLOPT_MAIL_RCPT, recipients.get());
  curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(c, CURLOPT_READFUNCTION, read_message);
  curl_easy_setopt(c, CURLOPT_READDATA, &t);
  curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(t.text.size()));
  curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, follow_conversation);
  curl_easy_setopt(c, CURLOPT_DEBUGDATA, &t);
  curl_easy_setopt(c, CURLOPT_VERBOSE, 1L); // feeds follow_conversation; libcurl writes nothing itself then
  auto code = perform_until(c, deadline);
  if (code == CURLE_OK)
    return {};
  if (code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_CONNECT)
    t.step = "connect to " + relay.host + ":" + std::to_string(relay.port);
  if (code == CURLE_OPERATION_TIMEDOUT)
    return "smtp " + t.step + ": timed out after " + std::to_string(options_.timeout.count()) + "ms";
  if (!t.refusal.empty())
    return "smtp " + t.refusal_step + ": " + t.refusal;
  std::string reason = error[0] != '\0' ? error : curl_easy_strerror(code);
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' '))
    reason.pop_back();
  return "smtp " + t.step + ": " + reason;
}

} // namespace svc::clients
