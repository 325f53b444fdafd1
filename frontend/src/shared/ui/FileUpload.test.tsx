import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mockApi } from "../test/render";
import { checkFiles, FileUpload, fileProblem, MAX_UPLOAD_BYTES, move, type UploadedImage } from "./FileUpload";

function file(name: string, type: string, size = 1000): File {
  const blob = new File(["x"], name, { type });
  Object.defineProperty(blob, "size", { value: size });
  return blob;
}

/** A stand-in for XMLHttpRequest that reports progress and answers like the server. */
class FakeRequest {
  static sent: FormData[] = [];
  // The server's MediaUploadResponse: the stored paths, and each file with its URL.
  static answer = {
    status: 201,
    body: { message: "Uploaded.", data: { filesPath: ["listings/o/a.jpg"], files: [{ path: "listings/o/a.jpg", url: "/uploads/listings/o/a.jpg", smallPath: "s" }] } },
  };
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
  send(body: FormData) {
    FakeRequest.sent.push(body);
    const progress = Object.assign(new Event("progress"), { lengthComputable: true, loaded: 50, total: 100 });
    this.upload.dispatchEvent(progress);
    this.status = FakeRequest.answer.status;
    this.responseText = JSON.stringify(FakeRequest.answer.body);
    setTimeout(() => this.events.dispatchEvent(new Event("load")), 0);
  }
}

function Field({ initial = [] as UploadedImage[], max = 20 }) {
  const [images, setImages] = useState(initial);
  return <FileUpload label="Photos" value={images} onChange={setImages} max={max} />;
}

describe("file upload", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeRequest.sent = [];
  });

  it("refuses what the server would refuse, before sending", () => {
    expect(fileProblem(file("a.pdf", "application/pdf"))).toBe("a.pdf: only JPEG, PNG, WebP or GIF images are accepted.");
    expect(fileProblem(file("big.jpg", "image/jpeg", MAX_UPLOAD_BYTES + 1))).toBe("big.jpg: images may be at most 10 MB.");
    expect(fileProblem(file("ok.webp", "image/webp"))).toBeNull();
    const many = Array.from({ length: 12 }, (_, i) => file(`${i}.png`, "image/png"));
    expect(checkFiles(many, 20).accepted).toHaveLength(10);
    expect(checkFiles(many, 20).problems).toEqual(["Upload at most 10 images at a time."]);
    expect(checkFiles(many, 2).problems).toEqual(["You can add 2 more images."]);
  });

  it("uploads the accepted files as multipart, then shows them", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeRequest);
    render(<Field />);
    fireEvent.change(screen.getByLabelText("Add images"), { target: { files: [file("a.jpg", "image/jpeg"), file("b.txt", "text/plain")] } });
    expect(await screen.findByRole("alert")).toHaveTextContent("b.txt: only JPEG, PNG, WebP or GIF images are accepted.");
    expect(await screen.findByRole("img", { name: /^Photos 1 of/ })).toHaveAttribute("src", "/uploads/listings/o/a.jpg");
    expect(FakeRequest.sent).toHaveLength(1);
    expect(FakeRequest.sent[0].getAll("files").map((f) => (f as File).name)).toEqual(["a.jpg"]);
  });

  it("keeps the list as it was when the server refuses the upload, and says why", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeRequest);
    FakeRequest.answer = { status: 400, body: { message: "a.jpg: this file is not an image we can read (JPEG, PNG, WebP or GIF).", data: [] } } as never;
    render(<Field />);
    fireEvent.change(screen.getByLabelText("Add images"), { target: { files: [file("a.jpg", "image/jpeg")] } });
    await waitFor(() => expect(document.querySelector(".toast--error")?.textContent).toContain("not an image we can read"));
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("reorders and removes through DELETE /api/media/remove", async () => {
    const images = [
      { path: "listings/o/1.jpg", url: "/u/1.jpg" },
      { path: "listings/o/2.jpg", url: "/u/2.jpg" },
    ];
    expect(move(images, 0, 1).map((i) => i.path)).toEqual(["listings/o/2.jpg", "listings/o/1.jpg"]);
    expect(move(images, 0, -1).map((i) => i.path)).toEqual(["listings/o/1.jpg", "listings/o/2.jpg"]);
    const fetch = mockApi({ "DELETE /api/media/remove": { body: { message: "Removed.", data: ["listings/o/1.jpg"] } } });
    render(<Field initial={images} />);
    fireEvent.click(screen.getByRole("button", { name: "Move photo 1 later" }));
    expect(screen.getByRole("img", { name: /^Photos 1 of/ })).toHaveAttribute("src", "/u/2.jpg");
    fireEvent.click(screen.getByRole("button", { name: "Remove photo 2" }));
    await waitFor(() => expect(screen.getAllByRole("img")).toHaveLength(1));
    const request = fetch.mock.calls[0][0] as Request;
    expect(request.method).toBe("DELETE");
    expect(await request.json()).toEqual({ filesPath: ["listings/o/1.jpg"] });
  });
});
