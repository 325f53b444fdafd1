import { readdirSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// One entry per island: src/islands/<Name>/main.tsx. django-vite reads the manifest.
const islandsDir = resolve(import.meta.dirname, "src/islands");
const input = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((name) => existsSync(resolve(islandsDir, name, "main.tsx")))
    .map((name) => [name, resolve(islandsDir, name, "main.tsx")]),
);

export default defineConfig({
  plugins: [react()],
  base: "/static/dist/",
  build: {
    manifest: "manifest.json",
    outDir: resolve(import.meta.dirname, "../static/dist"),
    emptyOutDir: true,
    rollupOptions: { input },
  },
  server: { port: 5173, strictPort: true, origin: "http://127.0.0.1:5173" },
  test: { environment: "jsdom", include: ["src/**/*.test.{ts,tsx}"] },
});
