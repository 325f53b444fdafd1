/**
 * Leaflet, loaded only where a map is drawn (its own chunk), with the tile server the page names
 * (settings MAP_TILE_URL and MAP_TILE_ATTRIBUTION). Markers are drawn as circles, so no marker
 * images are fetched.
 */
import type * as Leaflet from "leaflet";

export interface Tiles {
  tileUrl: string;
  attribution: string;
}

export interface MapMarker {
  id: string;
  lat: number;
  lng: number;
  title: string;
  href?: string;
  price?: string;
}

let loading: Promise<typeof Leaflet> | null = null;

export function loadLeaflet(): Promise<typeof Leaflet> {
  loading ??= Promise.all([import("leaflet"), import("./leafletCss")]).then(([module]) => (module.default ?? module) as typeof Leaflet);
  return loading;
}

export function createMap(L: typeof Leaflet, element: HTMLElement, tiles: Tiles, options: Leaflet.MapOptions = {}): Leaflet.Map {
  const map = L.map(element, { scrollWheelZoom: false, ...options });
  L.tileLayer(tiles.tileUrl, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
  return map;
}

export const MARKER_STYLE = { radius: 9, color: "#ffffff", weight: 2, fillColor: "#1f5eff", fillOpacity: 1 } as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char);
}

/** A marker's popup: its title (a link when it has a page) and price. */
export function popupHtml(marker: MapMarker): string {
  const title = escapeHtml(marker.title);
  const link = marker.href ? `<a href="${escapeHtml(marker.href)}">${title}</a>` : `<strong>${title}</strong>`;
  return marker.price ? `${link}<br>${escapeHtml(marker.price)}` : link;
}

/** `[south, west, north, east]` of what the map shows, rounded to 6 decimals. */
export function boxOf(map: Leaflet.Map): [number, number, number, number] {
  const bounds = map.getBounds();
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return [round(bounds.getSouth()), round(Math.max(-180, bounds.getWest())), round(bounds.getNorth()), round(Math.min(180, bounds.getEast()))];
}
