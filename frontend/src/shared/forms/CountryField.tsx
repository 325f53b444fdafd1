import { type Control, type FieldPath, type FieldValues, useWatch } from "react-hook-form";
import { countryOptions } from "./countries";
import { SelectField } from "./fields";

/** "Country" as a select of countries (the value is the English name, as stored before). */
export function CountryField<T extends FieldValues>({ control, name, required }: { control: Control<T>; name: FieldPath<T>; required?: boolean }) {
  const current = useWatch({ control, name }) as string | undefined;
  return <SelectField control={control} name={name} label="Country" required={required} options={countryOptions(current)} placeholder="Choose a country" />;
}
