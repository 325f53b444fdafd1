/** The listing page's map: the space's pin on tiles from the site's tile server. */
import { useEffect, useRef } from "react";
import { createMap, loadLeaflet, type MapMarker, MARKER_STYLE, popupHtml, type Tiles } from "./leaflet";
import "./maps.css";

export function ListingMap({ tileUrl, attribution, markers, zoom = 15 }: Tiles & { markers: MapMarker[]; zoom?: number }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let map: { remove: () => void } | null = null;
    let cancelled = false;
    const marker = markers[0];
    if (!marker) return undefined;
    void loadLeaflet().then((L) => {
      if (cancelled || !element.current) return;
      const created = createMap(L, element.current, { tileUrl, attribution }, { center: [marker.lat, marker.lng], zoom });
      L.circleMarker([marker.lat, marker.lng], MARKER_STYLE).addTo(created).bindPopup(popupHtml(marker));
      map = created;
    });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [tileUrl, attribution, markers, zoom]);
  return <div ref={element} className="map-canvas" data-testid="listing-map" />;
}
