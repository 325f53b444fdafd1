/** Leaflet's own styles, in the chunk that loads with the map. */
import "leaflet/dist/leaflet.css";
