/**
 * JSON typed by a person: parse strictly (no comments, no trailing commas), and when the text is not
 * JSON, say where ("line 2, column 5: …") in the same words on every browser. JSON.parse messages
 * differ between engines and rarely give a line, so the position comes from jsonc-parser's scanner.
 * Framework-free: used by the forms' schemas and their tests.
 */
import { type JSONVisitor, type ParseError, parse, printParseErrorCode, visit } from 'jsonc-parser';
import { depthExceededAt } from '@/lib/json-depth';
import { JSON_DEPTH_MAX } from '@/lib/user-group-api/contract';

export type JsonPosition = { line: number; column: number };

export type JsonTextResult =
  | { kind: 'empty' }
  | { kind: 'valid'; value: unknown }
  | ({ kind: 'invalid'; problem: string; message: string } & JsonPosition);

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true } as const;

/** 1-based line and column of a UTF-16 offset; columns count characters, as a person does. */
export function positionAt(text: string, offset: number): JsonPosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split(/\r\n|\r|\n/);
  const lastLine = lines[lines.length - 1] ?? '';
  return { line: lines.length, column: Array.from(lastLine).length + 1 };
}

const MAX_QUOTED = 20;

function quoted(fragment: string): string {
  const shown = fragment.length > MAX_QUOTED ? `${fragment.slice(0, MAX_QUOTED)}…` : fragment;
  return `“${shown}”`;
}

function previousNonSpace(text: string, offset: number): number {
  let index = offset - 1;
  while (index >= 0 && /\s/.test(text.charAt(index))) index -= 1;
  return index;
}

/** Offset and wording of the first problem, refined where jsonc-parser's own code is vague. */
function describeProblem(text: string, error: ParseError): { offset: number; problem: string } {
  const { offset, length } = error;
  const token = text.slice(offset, offset + length);
  const code = printParseErrorCode(error.error);
  switch (code) {
    case 'PropertyNameExpected':
    case 'ValueExpected': {
      const next = text.charAt(offset);
      const previous = previousNonSpace(text, offset);
      if ((next === '}' || next === ']') && text.charAt(previous) === ',') {
        return { offset: previous, problem: 'trailing comma is not allowed in JSON' };
      }
      if (offset >= text.length) return { offset, problem: 'the text ends where a value is expected' };
      return code === 'PropertyNameExpected'
        ? { offset, problem: 'expected a property name in double quotes' }
        : { offset, problem: 'expected a value' };
    }
    case 'InvalidSymbol':
      if (token.startsWith("'")) return { offset, problem: 'use double quotes, not single quotes' };
      return { offset, problem: `unexpected ${quoted(token)}` };
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return { offset, problem: `invalid number ${quoted(token)}` };
    case 'ColonExpected':
      return { offset, problem: 'expected a colon after the property name' };
    case 'CommaExpected':
      return { offset, problem: 'expected a comma' };
    case 'CloseBraceExpected':
      return offset >= text.length
        ? { offset, problem: 'the object is not closed: expected “}”' }
        : { offset, problem: 'expected a comma or “}”' };
    case 'CloseBracketExpected':
      return offset >= text.length
        ? { offset, problem: 'the array is not closed: expected “]”' }
        : { offset, problem: 'expected a comma or “]”' };
    case 'EndOfFileExpected':
      return { offset, problem: 'unexpected text after the end of the JSON value' };
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return { offset, problem: 'comments are not allowed in JSON' };
    case 'UnexpectedEndOfString':
      return { offset, problem: 'the string is not closed: expected a double quote' };
    case 'InvalidUnicode': {
      const at = token.indexOf('\\u');
      return { offset: at >= 0 ? offset + at : offset, problem: 'invalid \\u escape: expected 4 hex digits' };
    }
    case 'InvalidEscapeCharacter': {
      const at = token.search(/\\[^"\\/bfnrtu]/);
      return { offset: at >= 0 ? offset + at : offset, problem: 'invalid escape in a string' };
    }
    case 'InvalidCharacter': {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
      const at = token.search(/[\u0000-\u001f]/);
      return {
        offset: at >= 0 ? offset + at : offset,
        problem: 'a string cannot contain a raw tab or line break: write \\t or \\n',
      };
    }
    default:
      return { offset, problem: 'not valid JSON' };
  }
}

function invalid(text: string, offset: number, problem: string): JsonTextResult {
  const { line, column } = positionAt(text, offset);
  return { kind: 'invalid', problem, line, column, message: `line ${line}, column ${column}: ${problem}` };
}

/** An integer literal too large for a JavaScript number would be sent changed: refuse it instead. */
function findUnsafeInteger(text: string): { offset: number; literal: string } | undefined {
  let found: { offset: number; literal: string } | undefined;
  const visitor: JSONVisitor = {
    onLiteralValue: (value, offset, length) => {
      if (found || typeof value !== 'number') return;
      const literal = text.slice(offset, offset + length);
      if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(value)) found = { offset, literal };
    },
  };
  visit(text, visitor, PARSE_OPTIONS);
  return found;
}

/**
 * How deep a field's JSON (mapping, properties) may nest: it is sent one level down in the request
 * body, whose nesting the service caps at JSON_DEPTH_MAX counting the body's own braces.
 */
const MAX_FIELD_JSON_DEPTH = JSON_DEPTH_MAX - 1;
const TOO_DEEP = `nests deeper than ${MAX_FIELD_JSON_DEPTH} levels`;

/**
 * What is wrong with text that nests deeper than a field may, and where; undefined when it does not.
 * Checked before parsing: jsonc-parser recurses, and some 20,000 levels (100 KB) overflow the stack.
 */
export function nestingProblem(text: string): ({ problem: string } & JsonPosition) | undefined {
  const offset = depthExceededAt(text, MAX_FIELD_JSON_DEPTH);
  return offset < 0 ? undefined : { problem: TOO_DEEP, ...positionAt(text, offset) };
}

/** Parses JSON typed by a person. Blank text is `empty`, which the forms read as "omitted". */
export function parseJsonText(text: string): JsonTextResult {
  if (text.trim() === '') return { kind: 'empty' };
  const tooDeep = depthExceededAt(text, MAX_FIELD_JSON_DEPTH);
  if (tooDeep >= 0) return invalid(text, tooDeep, TOO_DEEP);
  const errors: ParseError[] = [];
  parse(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first) {
    const { offset, problem } = describeProblem(text, first);
    return invalid(text, offset, problem);
  }
  const unsafe = findUnsafeInteger(text);
  if (unsafe) {
    return invalid(
      text,
      unsafe.offset,
      `${quoted(unsafe.literal)} is too large to send exactly: write it as a string`,
    );
  }
  try {
    return { kind: 'valid', value: JSON.parse(text) };
  } catch {
    // jsonc-parser accepted what JSON.parse refuses: never expected, still never crash.
    return invalid(text, 0, 'not valid JSON');
  }
}

/** Pretty-prints JSON text with two spaces; undefined when the text is blank or not JSON. */
export function formatJsonText(text: string): string | undefined {
  const result = parseJsonText(text);
  return result.kind === 'valid' ? JSON.stringify(result.value, null, 2) : undefined;
}
