/**
 * Qt's date and time patterns (QDateTime::toString / fromString), as a QGIS DateTime widget
 * names its display format (`dd.MM.yyyy HH:mm`) and a text column's stored format: formatting a
 * local date with one, and reading a text back with one. Supported: d dd ddd dddd, M MM MMM
 * MMMM, yy yyyy, h hh H HH, m mm, s ss, z zzz, AP ap A a, t, and 'quoted' text ('' is a quote).
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Token = { text: string } | { field: string };

const FIELDS = [
  'dddd',
  'ddd',
  'dd',
  'd',
  'MMMM',
  'MMM',
  'MM',
  'M',
  'yyyy',
  'yy',
  'hh',
  'h',
  'HH',
  'H',
  'mm',
  'm',
  'ss',
  's',
  'zzz',
  'z',
  'AP',
  'ap',
  'A',
  'a',
  't',
];

/** The pattern cut into fields and literal text. */
export function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  const pushText = (text: string) => {
    const last = tokens[tokens.length - 1];
    if (last && 'text' in last) last.text += text;
    else tokens.push({ text });
  };
  let i = 0;
  while (i < pattern.length) {
    if (pattern[i] === "'") {
      if (pattern[i + 1] === "'") {
        pushText("'");
        i += 2;
        continue;
      }
      // Quoted text up to the closing quote; '' inside it is a quote.
      let text = '';
      let j = i + 1;
      while (j < pattern.length) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j += 1;
      }
      pushText(text);
      i = j + 1;
      continue;
    }
    const field = FIELDS.find((name) => pattern.startsWith(name, i));
    if (field) {
      tokens.push({ field });
      i += field.length;
    } else {
      pushText(pattern[i] as string);
      i += 1;
    }
  }
  return tokens;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Whether the pattern has an AM/PM field (then h is 1-12). */
const hasAmPm = (tokens: Token[]) =>
  tokens.some((token) => 'field' in token && /^(AP|ap|A|a)$/.test(token.field));

/** `date` (its local time) written with a Qt pattern. */
export function formatQt(date: Date, pattern: string): string {
  const tokens = tokenize(pattern);
  const twelve = hasAmPm(tokens);
  const hours = date.getHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return tokens
    .map((token) => {
      if ('text' in token) return token.text;
      switch (token.field) {
        case 'd':
          return String(date.getDate());
        case 'dd':
          return pad(date.getDate(), 2);
        case 'ddd':
          return (DAYS[date.getDay()] as string).slice(0, 3);
        case 'dddd':
          return DAYS[date.getDay()] as string;
        case 'M':
          return String(date.getMonth() + 1);
        case 'MM':
          return pad(date.getMonth() + 1, 2);
        case 'MMM':
          return (MONTHS[date.getMonth()] as string).slice(0, 3);
        case 'MMMM':
          return MONTHS[date.getMonth()] as string;
        case 'yy':
          return pad(date.getFullYear() % 100, 2);
        case 'yyyy':
          return pad(date.getFullYear(), 4);
        case 'h':
          return String(twelve ? h12 : hours);
        case 'hh':
          return pad(twelve ? h12 : hours, 2);
        case 'H':
          return String(hours);
        case 'HH':
          return pad(hours, 2);
        case 'm':
          return String(date.getMinutes());
        case 'mm':
          return pad(date.getMinutes(), 2);
        case 's':
          return String(date.getSeconds());
        case 'ss':
          return pad(date.getSeconds(), 2);
        case 'z':
          return String(date.getMilliseconds());
        case 'zzz':
          return pad(date.getMilliseconds(), 3);
        case 'AP':
        case 'A':
          return hours < 12 ? 'AM' : 'PM';
        case 'ap':
        case 'a':
          return hours < 12 ? 'am' : 'pm';
        case 't': {
          const offset = -date.getTimezoneOffset();
          const sign = offset >= 0 ? '+' : '-';
          return `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60), 2)}:${pad(Math.abs(offset) % 60, 2)}`;
        }
        default:
          return token.field;
      }
    })
    .join('');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FIELD_PATTERNS: Record<string, string> = {
  d: '(\\d{1,2})',
  dd: '(\\d{2})',
  ddd: '([A-Za-z]{3})',
  dddd: '([A-Za-z]+)',
  M: '(\\d{1,2})',
  MM: '(\\d{2})',
  MMM: '([A-Za-z]{3})',
  MMMM: '([A-Za-z]+)',
  yy: '(\\d{2})',
  yyyy: '(\\d{4})',
  h: '(\\d{1,2})',
  hh: '(\\d{2})',
  H: '(\\d{1,2})',
  HH: '(\\d{2})',
  m: '(\\d{1,2})',
  mm: '(\\d{2})',
  s: '(\\d{1,2})',
  ss: '(\\d{2})',
  z: '(\\d{1,3})',
  zzz: '(\\d{3})',
  AP: '(AM|PM)',
  ap: '(am|pm)',
  A: '(AM|PM)',
  a: '(am|pm)',
  t: '(\\S+)',
};

/** A text written with a Qt pattern, read as a local date; null when it does not match. */
export function parseQt(text: string, pattern: string): Date | null {
  const tokens = tokenize(pattern);
  const fields: string[] = [];
  const source = tokens
    .map((token) => {
      if ('text' in token) return escape(token.text);
      fields.push(token.field);
      return FIELD_PATTERNS[token.field] ?? '';
    })
    .join('');
  const match = new RegExp(`^${source}$`, 'i').exec(text.trim());
  if (!match) return null;
  let year = 2000;
  let month = 0;
  let day = 1;
  let hours = 0;
  let minutes = 0;
  let seconds = 0;
  let millis = 0;
  let pm: boolean | null = null;
  fields.forEach((field, index) => {
    const value = match[index + 1] as string;
    const number = Number(value);
    switch (field) {
      case 'd':
      case 'dd':
        day = number;
        break;
      case 'M':
      case 'MM':
        month = number - 1;
        break;
      case 'MMM':
      case 'MMMM': {
        const at = MONTHS.findIndex((name) =>
          name.toLowerCase().startsWith(value.toLowerCase().slice(0, 3)),
        );
        if (at >= 0) month = at;
        break;
      }
      case 'yy':
        year = 2000 + number;
        break;
      case 'yyyy':
        year = number;
        break;
      case 'h':
      case 'hh':
      case 'H':
      case 'HH':
        hours = number;
        break;
      case 'm':
      case 'mm':
        minutes = number;
        break;
      case 's':
      case 'ss':
        seconds = number;
        break;
      case 'z':
      case 'zzz':
        millis = number;
        break;
      case 'AP':
      case 'ap':
      case 'A':
      case 'a':
        pm = value.toLowerCase() === 'pm';
        break;
    }
  });
  if (pm !== null && hours <= 12) hours = (hours % 12) + (pm ? 12 : 0);
  const date = new Date(year, month, day, hours, minutes, seconds, millis);
  // 31.02. and the like do not exist.
  if (date.getMonth() !== month || date.getDate() !== day) return null;
  return date;
}
