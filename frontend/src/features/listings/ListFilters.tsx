/** The search box and the kit's selects above the listing tables (their values live in the URL). */
import { useId } from "react";
import { SelectInput } from "../../shared/forms/fields";
import "../../shared/ui/css/dashboard.css";
import { PERIOD_OPTIONS, PROPERTY_TYPES } from "./api";

export function ListFilters({
  search,
  onSearch,
  period,
  onPeriod,
  propertyType,
  onPropertyType,
}: {
  search: string;
  onSearch: (value: string) => void;
  period: string;
  onPeriod: (value: string) => void;
  propertyType?: string;
  onPropertyType?: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="dash-filter">
      <label className="visually-hidden" htmlFor={`${id}-search`}>
        Search by title
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="form-field__input"
        placeholder="Search by title"
        value={search}
        maxLength={140}
        onChange={(event) => onSearch(event.currentTarget.value)}
      />
      {onPropertyType && <SelectInput label="Property type" inline value={propertyType ?? ""} options={PROPERTY_TYPES} onChange={onPropertyType} />}
      <SelectInput label="Created" inline value={period} options={PERIOD_OPTIONS} onChange={onPeriod} />
    </div>
  );
}
