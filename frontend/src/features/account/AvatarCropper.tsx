/** Choose the square part of a photo to use as the avatar: zoom and move, then a 512 px JPEG. */
import { useEffect, useRef, useState } from "react";
import { Dialog } from "../../shared/ui/Dialog";

export const AVATAR_SIZE = 512;

/** The source square (x, y, side) of an image for a zoom (1 = the largest square) and a position (0..1). */
export function cropSquare(width: number, height: number, zoom: number, posX: number, posY: number) {
  const side = Math.min(width, height) / Math.max(1, zoom);
  const x = (width - side) * Math.min(1, Math.max(0, posX));
  const y = (height - side) * Math.min(1, Math.max(0, posY));
  return { x, y, side };
}

export function AvatarCropper({ file, onDone, onCancel }: { file: File; onDone: (blob: Blob) => void; onCancel: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [zoom, setZoom] = useState(1);
  const [posX, setPosX] = useState(0.5);
  const [posY, setPosY] = useState(0.5);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const url = URL.createObjectURL(file);
    const element = new Image();
    element.onload = () => setImage(element);
    element.onerror = () => setFailed(true);
    element.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    const context = canvas.current?.getContext?.("2d");
    if (!image || !context || !canvas.current) return;
    const { x, y, side } = cropSquare(image.naturalWidth, image.naturalHeight, zoom, posX, posY);
    context.clearRect(0, 0, canvas.current.width, canvas.current.height);
    context.drawImage(image, x, y, side, side, 0, 0, canvas.current.width, canvas.current.height);
  }, [image, zoom, posX, posY]);

  const done = () => {
    if (!image) return;
    const out = document.createElement("canvas");
    out.width = AVATAR_SIZE;
    out.height = AVATAR_SIZE;
    const context = out.getContext("2d");
    if (!context) return;
    const { x, y, side } = cropSquare(image.naturalWidth, image.naturalHeight, zoom, posX, posY);
    context.drawImage(image, x, y, side, side, 0, 0, AVATAR_SIZE, AVATAR_SIZE);
    out.toBlob((blob) => blob && onDone(blob), "image/jpeg", 0.9);
  };

  return (
    <Dialog title="Crop your photo" onClose={onCancel}>
      {failed ? (
        <p role="alert">This file is not an image we can read. Choose a JPEG, PNG or WebP photo.</p>
      ) : (
        <div className="people-crop">
          <canvas ref={canvas} width={240} height={240} className="people-crop__preview" aria-label="Cropped photo preview" role="img" />
          <label>
            Zoom
            <input type="range" min={1} max={4} step={0.05} value={zoom} onChange={(event) => setZoom(Number(event.currentTarget.value))} />
          </label>
          <label>
            Left and right
            <input type="range" min={0} max={1} step={0.01} value={posX} onChange={(event) => setPosX(Number(event.currentTarget.value))} />
          </label>
          <label>
            Up and down
            <input type="range" min={0} max={1} step={0.01} value={posY} onChange={(event) => setPosY(Number(event.currentTarget.value))} />
          </label>
        </div>
      )}
      <div className="confirm-dialog__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button" onClick={done} disabled={!image}>
          Use photo
        </button>
      </div>
    </Dialog>
  );
}
