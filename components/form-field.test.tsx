import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field';

function render(props: { description?: string; error?: string }) {
  return renderToStaticMarkup(
    <FormField id="f" label="Name" {...props}>
      {(control) => <input {...control} />}
    </FormField>,
  );
}

describe('FormField', () => {
  it('labels the control and ties it to its description and error', () => {
    const html = render({ description: 'Optional.', error: 'Too long.' });
    expect(html).toMatch(/<label for="f" [^>]*id="f-label">Name<\/label>/);
    expect(html).toContain('<input id="f" aria-invalid="true" aria-describedby="f-description f-error"/>');
    expect(html).toContain('<p id="f-description" class="text-xs text-muted-foreground">Optional.</p>');
    expect(html).toMatch(/<p id="f-error" [^>]*>Too long\.<\/p>/);
  });

  it('describes the control only with what is shown, and marks it invalid only with an error', () => {
    expect(render({})).toContain('<input id="f"/>');
    expect(render({ description: 'Optional.' })).toContain(
      '<input id="f" aria-describedby="f-description"/>',
    );
    expect(render({ error: 'Required.' })).toContain(
      '<input id="f" aria-invalid="true" aria-describedby="f-error"/>',
    );
  });
});
