import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// One entry per island: src/islands/<Name>/main.tsx. django-vite reads the manifest.
const islandsDir = resolve(import.meta.dirname, "src/islands");
const input = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((name) => existsSync(resolve(islandsDir, name, "main.tsx")))
    .map((name) => [name, resolve(islandsDir, name, "main.tsx")]),
);

// React 19 and react-dom go into one shared chunk ("react") that every island loads once.
export default defineConfig({
  plugins: [react()],
  base: "/static/dist/",
  build: {
    manifest: "manifest.json",
    outDir: resolve(import.meta.dirname, "../static/dist"),
    emptyOutDir: true,
    target: "es2022",
    rollupOptions: {
      input,
      output: {
        manualChunks(id: string) {
          if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return "react";
          return undefined;
        },
      },
    },
  },
  server: { port: 5173, strictPort: true, origin: "http://127.0.0.1:5173" },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/shared/test/setup.ts"],
    globals: true,
  },
});
