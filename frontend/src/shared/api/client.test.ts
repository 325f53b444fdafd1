import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { navigation } from "../browser/navigation";
import { ROOT_KEY } from "./session";
import { ApiError, api, call, csrfToken, errorMessage, GENERIC_ERROR } from "./client";

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

const toasts = () => [...document.querySelectorAll(".toast")].map((toast) => toast.textContent?.replace("×", ""));

describe("errorMessage", () => {
  it("prefers desc, then error, then message, else a generic sentence", () => {
    expect(errorMessage({ desc: "D", error: "E", message: "M" })).toBe("D");
    expect(errorMessage({ error: "E", message: "M" })).toBe("E");
    expect(errorMessage({ message: "M" })).toBe("M");
    expect(errorMessage({ message: "" })).toBe(GENERIC_ERROR);
    expect(errorMessage({ error: { nested: true } })).toBe(GENERIC_ERROR);
    expect(errorMessage("<html>")).toBe(GENERIC_ERROR);
    expect(errorMessage(null)).toBe(GENERIC_ERROR);
  });
});

describe("call", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let assign: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    assign = vi.spyOn(navigation, "assign").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("returns the data and sends the CSRF header from the cookie on writes", async () => {
    document.cookie = "csrftoken=abc123; path=/";
    fetchMock.mockResolvedValue(jsonResponse(200, { message: "ok", data: { userID: "1" } }));
    const data = await call(api.POST("/api/user/forgot-password", { body: { email: "a@b.co" } }));
    expect(data).toEqual({ message: "ok", data: { userID: "1" } });
    const request = fetchMock.mock.calls[0][0] as Request;
    expect(request.headers.get("X-CSRFToken")).toBe("abc123");
    expect(request.credentials).toBe("same-origin");
    expect(csrfToken()).toBe("abc123");
  });

  it("toasts the server's sentence and throws", async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { message: "No account found with this email.", errors: {} }));
    const promise = call(api.POST("/api/user/forgot-password", { body: { email: "a@b.co" } }));
    await expect(promise).rejects.toBeInstanceOf(ApiError);
    expect(toasts()).toEqual(["No account found with this email."]);
    expect(assign).not.toHaveBeenCalled();
  });

  it("toasts a generic sentence when the answer has none, or the network fails", async () => {
    fetchMock.mockResolvedValueOnce(new Response("<h1>Bad gateway</h1>", { status: 502 }));
    await expect(call(api.GET("/api/user/me"))).rejects.toMatchObject({ status: 502 });
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await expect(call(api.GET("/api/user/me"))).rejects.toMatchObject({ status: 0 });
    expect(toasts()).toEqual([GENERIC_ERROR, GENERIC_ERROR]);
  });

  it.each([401, 403])("on %i clears the session, logs out and goes home", async (status) => {
    window.localStorage.setItem(ROOT_KEY, JSON.stringify({ auth: { userInfo: { _id: "1", role: "renter" } } }));
    fetchMock
      .mockResolvedValueOnce(jsonResponse(status, { message: "Your session has expired." }))
      .mockResolvedValueOnce(jsonResponse(200, { message: "Logged out successfully.", data: null }));
    await expect(call(api.GET("/api/user/me"))).rejects.toMatchObject({ status });
    expect(window.localStorage.getItem(ROOT_KEY)).toBeNull();
    expect(fetchMock.mock.calls[1][0]).toBe("/api/user/logout");
    expect(assign).toHaveBeenCalledWith("/");
    // The message is shown on the page that follows.
    expect(window.sessionStorage.getItem("spacemarket:flashToast")).toContain("Your session has expired.");
  });

  it("leaves 401/403 to a caller that handles them (the login form)", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(403, { message: "Please verify your email.", data: { userID: "u-1" } }),
    );
    const error = await call(api.POST("/api/user/login", { body: { email: "a@b.co", password: "x" } }), {
      ownAuthErrors: true,
      silent: true,
    }).catch((caught: ApiError) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).data.userID).toBe("u-1");
    expect(assign).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual([]);
  });
});
