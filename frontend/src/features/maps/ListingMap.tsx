/**
 * The listing page's map: the space's pin on tiles from the site's tile server. It sits below the
 * photos and the description, so Leaflet (its chunk, styles and tiles) loads only when the map comes
 * near the screen, not with the page.
 */
import { useEffect, useRef } from "react";
import { createMap, loadLeaflet, MARKER_STYLE, popupHtml } from "../../shared/ui/map/leaflet";
import "./maps.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** Calls `show` once the element is within `margin` of the screen (at once where the browser cannot tell). */
export function whenNearScreen(element: Element, show: () => void, margin = "300px"): () => void {
  if (typeof IntersectionObserver === "undefined") {
    show();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        show();
      }
    },
    { rootMargin: margin },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

type ListingMapProps = IslandProps<"ListingMap">;

export function ListingMap({ tileUrl, attribution, markers, zoom = 15 }: Omit<ListingMapProps, "zoom"> & Partial<Pick<ListingMapProps, "zoom">>) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let map: { remove: () => void } | null = null;
    let cancelled = false;
    const marker = markers[0];
    if (!marker || !element.current) return undefined;
    const stopWatching = whenNearScreen(element.current, () => {
      void loadLeaflet().then((L) => {
        if (cancelled || !element.current) return;
        const created = createMap(L, element.current, { tileUrl, attribution }, { center: [marker.lat, marker.lng], zoom });
        L.circleMarker([marker.lat, marker.lng], MARKER_STYLE).addTo(created).bindPopup(popupHtml(marker));
        map = created;
      });
    });
    return () => {
      cancelled = true;
      stopWatching();
      map?.remove();
    };
  }, [tileUrl, attribution, markers, zoom]);
  return <div ref={element} className="map-canvas" data-testid="listing-map" />;
}
