#!/usr/bin/env python3
"""A client of the main Svc flows, standard library only (urllib, json).

Reads SVC_API_URL (default http://127.0.0.1:8080) and SVC_API_KEY (a write
key), and optionally SVC_WEBHOOK_URL (an https:// receiver to register) and
SVC_OUTPUT_DIR (where the PNG and the endpoint secret go; default ./svc-output).
Prints one line per step; exits non-zero with the API's typed error when a
step fails. See examples/README.md.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

TERMINAL = {"succeeded", "failed", "cancelled", "expired", "moderation_rejected"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class ApiError(Exception):
    """A non-2xx answer, with the fields of the error envelope."""

    def __init__(self, status, body):
        error = body.get("error", {}) if isinstance(body, dict) else {}
        self.status = status
        self.code = error.get("code", "")
        super().__init__(f"{status} {self.code}: {error.get('message', body)} "
                         f"(request {error.get('request_id', '?')})")


class Client:
    def __init__(self, base_url, api_key):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def request(self, method, path, body=None, headers=None):
        """Sends one request; returns (JSON body, response headers). Waits out
        a 429 as its Retry-After says (rate limits are per team)."""
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"X-Api-Key": self.api_key, "Accept": "application/json", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        for _ in range(5):
            req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=all_headers)
            try:
                with urllib.request.urlopen(req, timeout=90) as answer:
                    return json.load(answer), answer.headers
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    error_body = json.loads(raw)
                except ValueError:  # not Svc's envelope: a proxy's page, say
                    error_body = {"error": {"message": raw[:200].decode(errors="replace")}}
                if e.code == 429:
                    time.sleep(int(e.headers.get("Retry-After", "1")))
                    continue
                raise ApiError(e.code, error_body) from None
        raise ApiError(429, {"error": {"code": "too_many_requests", "message": "still limited after 5 tries"}})

    def create_image(self, prompt, idempotency_key, **fields):
        return self.request("POST", "/v1/images", {"prompt": prompt, **fields},
                            {"Idempotency-Key": idempotency_key})

    def wait_for_image(self, image_id, timeout_s=120):
        """Long-polls with `Prefer: wait=30` (the server holds the answer until
        the job ends) until the image reaches a terminal status."""
        deadline = time.monotonic() + timeout_s
        while True:
            image, _ = self.request("GET", f"/v1/images/{image_id}", headers={"Prefer": "wait=30"})
            if image["status"] in TERMINAL or time.monotonic() > deadline:
                return image

    def list_images(self, page_size):
        """Every image of the team, newest first, following the cursor; returns
        (images, number of pages)."""
        images, pages, cursor = [], 0, None
        while True:
            query = f"?limit={page_size}" + (f"&starting_after={cursor}" if cursor else "")
            page, _ = self.request("GET", "/v1/images" + query)
            images += page["data"]
            pages += 1
            if not page["has_more"]:
                return images, pages
            cursor = page["data"][-1]["id"]


def download(url, path):
    """Output URLs are signed: a plain GET without the key."""
    with urllib.request.urlopen(url, timeout=60) as answer, open(path, "wb") as out:
        out.write(answer.read())
    with open(path, "rb") as f:
        return f.read(len(PNG_MAGIC)) == PNG_MAGIC


def main():
    api_key = os.environ.get("SVC_API_KEY")
    if not api_key:
        sys.exit("set SVC_API_KEY to a write key (svcctl key create --team TEAM --scope write)")
    client = Client(os.environ.get("SVC_API_URL", "http://127.0.0.1:8080"), api_key)
    out_dir = os.environ.get("SVC_OUTPUT_DIR", "svc-output")
    os.makedirs(out_dir, exist_ok=True)

    balance, _ = client.request("GET", "/v1/balance")
    print(f"balance: {balance['available']} credits available, {balance['held']} held")

    # One key per logical operation: a retry after a timeout or a dropped
    # connection then cannot create (and pay for) a second image.
    key = str(uuid.uuid4())
    prompt = "a lighthouse on a cliff at dusk, watercolor"
    image, _ = client.create_image(prompt, key, width=256, height=256)
    print(f"created {image['id']} ({image['status']}, {image['cost']['credits']} credits held)")
    again, headers = client.create_image(prompt, key, width=256, height=256)
    print(f"retried with the same Idempotency-Key: {again['id']}, "
          f"Idempotent-Replayed: {headers.get('Idempotent-Replayed')}")

    image = client.wait_for_image(image["id"])
    print(f"{image['id']} {image['status']}")
    if image["status"] != "succeeded":
        sys.exit(f"the image ended {image['status']}: {image.get('failure')}")
    path = os.path.join(out_dir, image["id"] + ".png")
    if not download(image["output_urls"][0], path):
        sys.exit(f"{path} is not a PNG")
    print(f"downloaded {path} ({os.path.getsize(path)} bytes, PNG)")

    other, _ = client.create_image("a storm over the sea", str(uuid.uuid4()), width=256, height=256)
    try:
        cancelled, _ = client.request("POST", f"/v1/images/{other['id']}/cancel")
        print(f"cancelled {cancelled['id']} ({cancelled['status']}, credits {cancelled['cost']['status']})")
    except ApiError as e:
        if e.code != "invalid_state":
            raise
        print(f"{other['id']} had already finished, so it could not be cancelled ({e.code})")

    images, pages = client.list_images(page_size=1)
    print(f"listed {len(images)} images in {pages} pages")

    usage, _ = client.request("GET", "/v1/usage")
    total = usage["total"]
    print(f"usage {usage['start']}..{usage['end']}: {total['credits_charged']} credits charged, "
          f"{total['images']} images")

    webhook_url = os.environ.get("SVC_WEBHOOK_URL")
    if webhook_url:
        endpoint, _ = client.request("POST", "/v1/webhook_endpoints",
                                     {"url": webhook_url, "events": ["image.completed", "image.failed"]})
        # The secret is shown only in this answer: keep it where the receiver
        # can read it, and never in a log.
        secret_path = os.path.join(out_dir, endpoint["id"] + ".secret")
        with open(os.open(secret_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(endpoint["secret"])
        print(f"registered {endpoint['id']} for {', '.join(endpoint['events'])} at {endpoint['url']} "
              f"(secret {endpoint['secret_preview']} saved to {secret_path})")


if __name__ == "__main__":
    try:
        main()
    except ApiError as e:
        sys.exit(f"error: {e}")
