/** The kit's pin picker for forms (the listing form's location): click (or tap) to put the pin; the latitude and longitude fields follow. */
import { useEffect, useId, useRef } from "react";
import type * as Leaflet from "leaflet";
import { createMap, loadLeaflet, MARKER_STYLE, type Tiles } from "./leaflet";

export function LocationPicker({
  tileUrl,
  attribution,
  latitude,
  longitude,
  onPick,
}: Tiles & { latitude: string; longitude: string; onPick: (lat: number, lng: number) => void }) {
  const id = useId();
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<Leaflet.Map | null>(null);
  const marker = useRef<Leaflet.CircleMarker | null>(null);
  const leaflet = useRef<typeof Leaflet | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    let cancelled = false;
    void loadLeaflet().then((L) => {
      if (cancelled || !element.current || map.current) return;
      leaflet.current = L;
      const lat = Number(latitude);
      const lng = Number(longitude);
      const has = latitude !== "" && longitude !== "" && Number.isFinite(lat) && Number.isFinite(lng);
      map.current = createMap(L, element.current, { tileUrl, attribution }, { center: has ? [lat, lng] : [30, 0], zoom: has ? 15 : 2 });
      if (has) marker.current = L.circleMarker([lat, lng], MARKER_STYLE).addTo(map.current);
      map.current.on("click", (event: Leaflet.LeafletMouseEvent) => pick.current(event.latlng.lat, event.latlng.lng));
    });
    return () => {
      cancelled = true;
      map.current?.remove();
      map.current = null;
      marker.current = null;
    };
    // The map is made once; the pin follows the fields below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const L = leaflet.current;
    const lat = Number(latitude);
    const lng = Number(longitude);
    if (!L || !map.current || latitude === "" || longitude === "" || !Number.isFinite(lat) || !Number.isFinite(lng)) return;
    if (marker.current) marker.current.setLatLng([lat, lng]);
    else marker.current = L.circleMarker([lat, lng], MARKER_STYLE).addTo(map.current);
  }, [latitude, longitude]);

  return (
    <div className="form-field">
      <span className="form-field__label" id={`${id}-label`}>
        Pin on the map
      </span>
      <div ref={element} className="picker-map" role="application" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`} />
      <p className="form-field__hint" id={`${id}-hint`}>
        Click the map where the entrance is, or type the latitude and longitude below.
      </p>
    </div>
  );
}
