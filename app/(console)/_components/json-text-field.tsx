'use client';

import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { FormField, formFieldLabelId } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { loadJsonParser } from './json-text.schema';

type JsonTextFieldProps<Values extends FieldValues> = {
  control: Control<Values>;
  name: FieldPath<Values>;
  id: string;
  label: string;
  description: string;
  placeholder?: string;
};

/** Whether text parses as JSON, natively: what enables Format before the parser is fetched. */
function parsesAsJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON textarea with a Format button. The form validates it on every change (the schema says
 * where a syntax error is); Format pretty-prints with two spaces and is disabled until the text is JSON
 * the schema accepts (an integer too large to keep exactly is not reformatted: it is refused).
 */
export function JsonTextField<Values extends FieldValues>({
  control,
  name,
  id,
  label,
  description,
  placeholder,
}: JsonTextFieldProps<Values>) {
  const { field, fieldState } = useController({ control, name });
  const text = typeof field.value === 'string' ? field.value : '';
  const error = fieldState.error?.message;
  const formattable = error === undefined && parsesAsJson(text);

  return (
    <FormField
      id={id}
      label={label}
      description={description}
      error={error}
      actions={
        <Button
          variant="ghost"
          size="sm"
          className="-my-1 h-7"
          disabled={!formattable}
          aria-describedby={formFieldLabelId(id)}
          onClick={async () => {
            // The parser is here already: the text in the field was checked with it.
            const formatted = (await loadJsonParser()).formatJsonText(text);
            if (formatted !== undefined) field.onChange(formatted);
          }}
        >
          Format
        </Button>
      }
    >
      {(control) => (
        <Textarea
          {...control}
          ref={field.ref}
          name={field.name}
          value={text}
          onChange={field.onChange}
          onBlur={field.onBlur}
          rows={4}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          autoComplete="off"
          placeholder={placeholder}
          className="font-mono text-[13px] leading-5"
        />
      )}
    </FormField>
  );
}
