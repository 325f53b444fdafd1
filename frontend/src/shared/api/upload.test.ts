import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { navigation } from "../browser/navigation";
import { upload } from "./upload";

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** An XMLHttpRequest that reports half the body sent, then answers `status` with `body`. */
function fakeRequest(status: number, body: unknown) {
  return class {
    upload = new EventTarget();
    private events = new EventTarget();
    status = 0;
    responseText = "";
    withCredentials = false;
    headers: Record<string, string> = {};
    open() {}
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    addEventListener(name: string, listener: EventListener) {
      this.events.addEventListener(name, listener);
    }
    send() {
      this.upload.dispatchEvent(Object.assign(new Event("progress"), { lengthComputable: true, loaded: 1, total: 2 }));
      this.status = status;
      this.responseText = JSON.stringify(body);
      setTimeout(() => this.events.dispatchEvent(new Event("load")), 0);
    }
  };
}

describe("upload", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let assign: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    document.cookie = "csrftoken=abc123; path=/";
    fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    assign = vi.spyOn(navigation, "assign").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("sends the form with the CSRF header and gives back the answer", async () => {
    fetchMock.mockResolvedValue(jsonResponse(201, { message: "Sent.", data: { _id: "m1" } }));
    const form = new FormData();
    form.append("text", "hello");
    const answer = await upload<{ message: string }>("/api/chat/send/c1", form, { method: "PUT" });
    expect(answer.message).toBe("Sent.");
    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe("/api/chat/send/c1");
    expect(init).toMatchObject({ method: "PUT", body: form, headers: { "X-CSRFToken": "abc123" } });
  });

  it("ends the session on 401, like every other call, also with a progress bar", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { message: "Logged out successfully.", data: null }));
    vi.stubGlobal("XMLHttpRequest", fakeRequest(401, { message: "Your session has expired." }));
    const progress: number[] = [];
    await expect(upload("/api/media/uploads", new FormData(), { onProgress: (percent) => progress.push(percent) })).rejects.toMatchObject({ status: 401 });
    expect(progress).toEqual([50]);
    expect(fetchMock.mock.calls[0][0]).toBe("/api/user/logout");
    expect(assign).toHaveBeenCalledWith("/");
  });
});
