/**
 * The server's log: JSON lines (pino, Fastify's logger) for machines, or short one-line
 * entries for a person at a terminal (LOG_FORMAT; by default `pretty` when standard output
 * is a terminal, `json` otherwise). In the pretty form, requests are not logged at the default
 * level (a sign-in alone makes dozens), and at `debug` and `trace` each is one line
 * (`GET /v1/project/… 200 12 ms`); errors keep their stack.
 */
import { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every pino line has, not shown again in the pretty form. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'err']);

interface LogLine {
  level: number;
  time: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

function clock(time: number): string {
  return new Date(time).toTimeString().slice(0, 8);
}

function value(field: unknown): string {
  if (typeof field === 'string') return /\s/.test(field) ? JSON.stringify(field) : field;
  return JSON.stringify(field);
}

/** Most requests remembered between their start and end (pretty form). */
const OPEN_REQUESTS = 1000;

/**
 * One pino line in the pretty form; null to leave it out. A request is one line when it
 * completes, with the method and address its start gave (kept in `open` by request id).
 */
export function prettyLine(
  line: LogLine,
  showRequests: boolean,
  open: Map<string, string>,
): string | null {
  if (line.msg === 'incoming request') {
    if (showRequests && line.reqId !== undefined) {
      if (open.size >= OPEN_REQUESTS) open.delete(open.keys().next().value!);
      open.set(line.reqId, `${line.req?.method ?? ''} ${line.req?.url ?? ''}`);
    }
    return null;
  }
  if (line.msg === 'request completed') {
    const request = line.reqId === undefined ? undefined : open.get(line.reqId);
    if (line.reqId !== undefined) open.delete(line.reqId);
    if (!showRequests) return null;
    const ms = typeof line.responseTime === 'number' ? ` ${line.responseTime.toFixed(0)} ms` : '';
    return `${clock(line.time)} ${request ?? 'request'} ${line.res?.statusCode ?? ''}${ms}`;
  }
  const fields = Object.entries(line)
    .filter(([key, field]) => !OMITTED.has(key) && field !== undefined)
    .map(([key, field]) => `${key}=${value(field)}`);
  const parts = [clock(line.time), LEVELS[line.level] ?? String(line.level), line.msg ?? ''];
  if (line.err?.message && line.err.message !== line.msg) parts.push(`(${line.err.message})`);
  if (fields.length > 0) parts.push(fields.join(' '));
  let text = parts.filter((part) => part !== '').join(' ');
  if (line.level >= 50 && line.err?.stack) text += `\n${line.err.stack}`;
  return text;
}

/** A stream for pino that writes its JSON lines to `out` in the pretty form. */
export function prettyStream(out: NodeJS.WritableStream, showRequests: boolean): Writable {
  const open = new Map<string, string>();
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const text of String(chunk).split('\n')) {
        if (text.trim() === '') continue;
        let shown: string | null = text;
        try {
          shown = prettyLine(JSON.parse(text) as LogLine, showRequests, open);
        } catch {
          // Not JSON: as it is.
        }
        if (shown !== null) out.write(`${shown}\n`);
      }
      done();
    },
  });
}

/** Fastify's logger setting for this configuration. */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
): FastifyServerOptions['logger'] {
  if (config.logFormat === 'json') return { level: config.logLevel };
  const showRequests = config.logLevel === 'debug' || config.logLevel === 'trace';
  return { level: config.logLevel, stream: prettyStream(process.stdout, showRequests) };
}
