/**
 * The search page's map of the results. Moving the map searches its box together with the page's
 * other filters (dates, guests, type...): the results below are fetched as the same server-rendered
 * page and swapped in place, and the address bar follows, so back, reload and links keep the box.
 * On phones the results come first: the map stays behind a "Show map" button, and Leaflet's chunk
 * and tiles load only when it is pressed (a tile would otherwise be the page's largest paint).
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import type * as Leaflet from "leaflet";
import { boxOf, createMap, loadLeaflet, MARKER_STYLE, popupHtml } from "../../shared/ui/map/leaflet";
import type { IslandProps } from "../../shared/ui/mountIsland";
import "./maps.css";

/** The server's props (IslandPropsSearchMap): the results' pins and the box searched (south, west, north, east). */
export type SearchMapProps = IslandProps<"SearchMap">;

/** The page URL for the box: the current query with `bounds` replaced and the page reset. */
export function urlForBox(location: { pathname: string; search: string }, box: readonly number[]): string {
  const params = new URLSearchParams(location.search);
  params.set("bounds", box.join(","));
  params.delete("page");
  return `${location.pathname}?${params.toString()}`;
}

/** The results part of a search page's HTML and its map props. */
export function resultsOf(html: string): { results: Element | null; props: SearchMapProps | null } {
  const page = new DOMParser().parseFromString(html, "text/html");
  const script = page.getElementById("search-map-props");
  let props: SearchMapProps | null = null;
  try {
    const parsed: SearchMapProps | null = script?.textContent ? JSON.parse(script.textContent) : null;
    props = parsed;
  } catch {
    props = null;
  }
  return { results: page.getElementById("search-results"), props };
}

/** Phones: the results come first and the map waits behind a button (the navbar's breakpoint). */
export const SMALL_SCREEN = "(max-width: 767px)";

function useSmallScreen(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(SMALL_SCREEN);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(SMALL_SCREEN).matches,
  );
}

export function SearchMap(initial: SearchMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<Leaflet.Map | null>(null);
  const layer = useRef<Leaflet.LayerGroup | null>(null);
  const leaflet = useRef<typeof Leaflet | null>(null);
  const controller = useRef<AbortController | null>(null);
  const [markers, setMarkers] = useState(initial.markers);
  const [searching, setSearching] = useState(false);
  const [opened, setOpened] = useState(false);
  const moved = useRef(false);
  const small = useSmallScreen();
  // On phones Leaflet (its chunk and its tiles) is loaded only once the visitor asks for the map.
  const shown = !small || opened;
  const frameId = useId();

  useEffect(() => {
    if (!shown) return undefined;
    if (map.current) {
      // Shown again after being hidden: Leaflet measures its box anew.
      map.current.invalidateSize();
      return undefined;
    }
    let cancelled = false;
    void loadLeaflet().then((L) => {
      if (cancelled || !element.current || map.current) return;
      leaflet.current = L;
      const created = createMap(L, element.current, initial, { center: [30, 0], zoom: 2 });
      map.current = created;
      layer.current = L.layerGroup().addTo(created);
      // No search runs before the map exists, so its first markers are the page's.
      for (const marker of initial.markers) L.circleMarker([marker.lat, marker.lng], MARKER_STYLE).bindPopup(popupHtml(marker)).addTo(layer.current);
      if (initial.bounds) {
        const [south, west, north, east] = initial.bounds;
        created.fitBounds([
          [south, west],
          [north, east],
        ]);
      } else if (initial.markers.length) created.fitBounds(L.latLngBounds(initial.markers.map((marker) => [marker.lat, marker.lng] as [number, number])).pad(0.2), { maxZoom: 14 });
      // Only a move the visitor makes searches; fitting the map above does not.
      created.on("dragstart zoomstart", () => {
        moved.current = true;
      });
      let timer: number | undefined;
      created.on("moveend", () => {
        if (!moved.current) return;
        moved.current = false;
        window.clearTimeout(timer);
        timer = window.setTimeout(() => void search(boxOf(created)), 400);
      });
    });
    return () => {
      cancelled = true;
    };
    // The map is made once, the first time it is shown; later results only change the markers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown]);

  useEffect(
    () => () => {
      controller.current?.abort();
      map.current?.remove();
      map.current = null;
    },
    [],
  );

  async function search(box: [number, number, number, number]) {
    const url = urlForBox(window.location, box);
    controller.current?.abort();
    controller.current = new AbortController();
    setSearching(true);
    try {
      const response = await fetch(url, { credentials: "same-origin", signal: controller.current.signal, headers: { Accept: "text/html" } });
      const { results, props } = resultsOf(await response.text());
      const current = document.getElementById("search-results");
      if (results && current) {
        current.replaceWith(results);
        window.history.pushState(window.history.state, "", url);
        window.dispatchEvent(new CustomEvent("search-results-changed"));
      }
      if (props) setMarkers(props.markers);
    } catch (error) {
      if ((error as Error).name !== "AbortError") window.location.assign(url);
    } finally {
      setSearching(false);
    }
  }

  useEffect(() => {
    const L = leaflet.current;
    if (!L || !layer.current) return;
    layer.current.clearLayers();
    for (const marker of markers) L.circleMarker([marker.lat, marker.lng], MARKER_STYLE).bindPopup(popupHtml(marker)).addTo(layer.current);
  }, [markers]);

  return (
    <>
      {small && (
        <button type="button" className="button button--ghost search-map__toggle" aria-expanded={opened} aria-controls={frameId} onClick={() => setOpened(!opened)}>
          {opened ? "Hide map" : "Show map"}
        </button>
      )}
      <div className="search-map__frame" id={frameId} hidden={!shown}>
        <div ref={element} className="map-canvas" data-testid="search-map" />
        <p className="search-map__hint" aria-live="polite">
          {searching ? "Searching this area…" : "Move the map to search that area."}
        </p>
      </div>
    </>
  );
}
