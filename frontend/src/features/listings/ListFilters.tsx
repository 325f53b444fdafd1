/** The search box and selects above the listing tables (their values live in the URL). */
import { useId } from "react";
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
      {onPropertyType && (
        <>
          <label className="visually-hidden" htmlFor={`${id}-type`}>
            Property type
          </label>
          <select id={`${id}-type`} className="form-field__input" value={propertyType} onChange={(event) => onPropertyType(event.currentTarget.value)}>
            {PROPERTY_TYPES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </>
      )}
      <label className="visually-hidden" htmlFor={`${id}-period`}>
        Created
      </label>
      <select id={`${id}-period`} className="form-field__input" value={period} onChange={(event) => onPeriod(event.currentTarget.value)}>
        {PERIOD_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
