/**
 * Maps on Leaflet, loaded on first use. The tile server's URL and attribution come from the
 * deployment's settings through the page's props (`tiles`); without a URL no tiles are fetched
 * (tests, offline), and the map still places pins and reports its box.
 *
 * - PinPicker: a form field for a place: click the map or type the latitude and longitude.
 * - ResultsMap: search results as pins; moving the map reports the visible box, which drives the search.
 */
import type { LatLngBounds, Map as LeafletMap } from "leaflet";
import { useEffect, useId, useRef, useState } from "react";
import "./css/kit.css";

export interface Tiles {
  url: string;
  attribution: string;
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** The visible box of a results map, as the search reads it. */
export interface Box {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface Pin extends LatLng {
  id: string;
  label: string;
  href?: string;
}

type LeafletModule = typeof import("leaflet");
let loading: Promise<LeafletModule> | null = null;

/** Leaflet and its stylesheet, once per page. */
export function loadLeaflet(): Promise<LeafletModule> {
  loading ??= Promise.all([import("leaflet"), import("leaflet/dist/leaflet.css")]).then(([module]) => (module as { default?: LeafletModule }).default ?? module);
  return loading;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** A Leaflet box as search filters, rounded to 6 decimals (about 10 cm). */
export function boxOf(bounds: Pick<LatLngBounds, "getNorth" | "getSouth" | "getEast" | "getWest">): Box {
  return { north: round(bounds.getNorth()), south: round(bounds.getSouth()), east: round(bounds.getEast()), west: round(bounds.getWest()) };
}

/** The box as the search's query parameters. */
export function boxFilters(box: Box): Record<string, string> {
  return { north: String(box.north), south: String(box.south), east: String(box.east), west: String(box.west) };
}

export function validLatLng(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}

/** A dot marker drawn with CSS, so no marker image has to be served. */
function dotIcon(L: LeafletModule, label: string) {
  return L.divIcon({ className: "map-pin", html: `<span class="map-pin__dot" title="${label.replace(/"/g, "&quot;")}"></span>`, iconSize: [18, 18], iconAnchor: [9, 9] });
}

function useLeafletMap(element: React.RefObject<HTMLDivElement | null>, tiles: Tiles | null, center: LatLng, zoom: number) {
  const [map, setMap] = useState<{ L: LeafletModule; map: LeafletMap } | null>(null);
  useEffect(() => {
    let cancelled = false;
    let created: LeafletMap | null = null;
    void loadLeaflet().then((L) => {
      if (cancelled || !element.current) return;
      created = L.map(element.current, { center: [center.lat, center.lng], zoom, attributionControl: Boolean(tiles?.url) });
      if (tiles?.url) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(created);
      setMap({ L, map: created });
    });
    return () => {
      cancelled = true;
      created?.remove();
    };
    // The map is made once; later centre and zoom changes are applied by the callers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tiles?.url, tiles?.attribution]);
  return map;
}

export interface PinPickerProps {
  label: string;
  value: LatLng | null;
  onChange: (value: LatLng) => void;
  tiles: Tiles | null;
  /** Where the map opens when there is no pin yet (the listing's city, say). */
  center?: LatLng;
  height?: number;
}

export function PinPicker({ label, value, onChange, tiles, center = { lat: 43.6532, lng: -79.3832 }, height = 280 }: PinPickerProps) {
  const id = useId();
  const element = useRef<HTMLDivElement>(null);
  const leaflet = useLeafletMap(element, tiles, value ?? center, value ? 15 : 11);
  const change = useRef(onChange);
  useEffect(() => {
    change.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!leaflet) return undefined;
    const pick = (event: { latlng: { lat: number; lng: number } }) => change.current({ lat: round(event.latlng.lat), lng: round(event.latlng.lng) });
    leaflet.map.on("click", pick);
    return () => {
      leaflet.map.off("click", pick);
    };
  }, [leaflet]);

  useEffect(() => {
    if (!leaflet || !value) return undefined;
    const marker = leaflet.L.marker([value.lat, value.lng], { icon: dotIcon(leaflet.L, label), keyboard: false }).addTo(leaflet.map);
    return () => {
      marker.remove();
    };
  }, [leaflet, value, label]);

  const [lat, setLat] = useState(value ? String(value.lat) : "");
  const [lng, setLng] = useState(value ? String(value.lng) : "");
  useEffect(() => {
    setLat(value ? String(value.lat) : "");
    setLng(value ? String(value.lng) : "");
  }, [value]);
  const typed = (nextLat: string, nextLng: string) => {
    const a = Number.parseFloat(nextLat);
    const b = Number.parseFloat(nextLng);
    if (validLatLng(a, b)) onChange({ lat: round(a), lng: round(b) });
  };

  return (
    <fieldset className="map-field">
      <legend className="form-field__label">{label}</legend>
      <div ref={element} className="map" style={{ height }} aria-hidden="true" data-testid="map" />
      <div className="map-field__coords">
        <label htmlFor={`${id}-lat`}>
          Latitude
          <input id={`${id}-lat`} className="form-field__input" inputMode="decimal" value={lat} onChange={(event) => setLat(event.currentTarget.value)} onBlur={() => typed(lat, lng)} />
        </label>
        <label htmlFor={`${id}-lng`}>
          Longitude
          <input id={`${id}-lng`} className="form-field__input" inputMode="decimal" value={lng} onChange={(event) => setLng(event.currentTarget.value)} onBlur={() => typed(lat, lng)} />
        </label>
      </div>
    </fieldset>
  );
}

export interface ResultsMapProps {
  label: string;
  pins: Pin[];
  tiles: Tiles | null;
  /** Called with the visible box after the map stops moving (and once it is drawn). */
  onBoxChange: (box: Box) => void;
  center?: LatLng;
  zoom?: number;
  height?: number;
}

export function ResultsMap({ label, pins, tiles, onBoxChange, center = { lat: 43.6532, lng: -79.3832 }, zoom = 11, height = 360 }: ResultsMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const leaflet = useLeafletMap(element, tiles, center, zoom);
  const report = useRef(onBoxChange);
  useEffect(() => {
    report.current = onBoxChange;
  }, [onBoxChange]);

  useEffect(() => {
    if (!leaflet) return undefined;
    const moved = () => report.current(boxOf(leaflet.map.getBounds()));
    leaflet.map.on("moveend", moved);
    return () => {
      leaflet.map.off("moveend", moved);
    };
  }, [leaflet]);

  useEffect(() => {
    if (!leaflet) return undefined;
    const layer = leaflet.L.layerGroup(
      pins.map((pin) => {
        const marker = leaflet.L.marker([pin.lat, pin.lng], { icon: dotIcon(leaflet.L, pin.label), title: pin.label });
        if (pin.href) marker.on("click", () => window.location.assign(pin.href!));
        return marker;
      }),
    ).addTo(leaflet.map);
    return () => {
      layer.remove();
    };
  }, [leaflet, pins]);

  return (
    <section className="map-results" aria-label={label}>
      <div ref={element} className="map" style={{ height }} data-testid="map" />
      {/* The same results as links, for keyboards and screen readers. */}
      <ul className="visually-hidden">
        {pins.map((pin) => (
          <li key={pin.id}>{pin.href ? <a href={pin.href}>{pin.label}</a> : pin.label}</li>
        ))}
      </ul>
    </section>
  );
}
