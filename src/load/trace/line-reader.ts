/**
 * A file's lines, read forward a chunk at a time, synchronously (an arrival generator's `next()`
 * is synchronous). Memory is one chunk and the line being read, whatever the file's size. The
 * file is opened for each chunk and closed again (a positioned read): a reader left unfinished,
 * as a run that ends early leaves its trace, holds no file descriptor.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { TraceError } from './trace-row.js';

/** Bytes read at a time. */
export const CHUNK_BYTES = 1 << 20;
/** Longest line accepted (characters): a Mooncake row of a 1M-token prompt has ~2000 block ids. */
export const TRACE_LINE_MAX_CHARS = 1 << 20;

export class LineReader {
  /** 1-based number of the line `next` returned last. */
  lineNo = 0;
  private pos = 0;
  private readonly buf = Buffer.alloc(CHUNK_BYTES);
  private readonly dec = new StringDecoder('utf8');
  private lines: string[] = [];
  private at = 0;
  private rest = '';
  private eof = false;

  constructor(private readonly path: string) {}

  /**
   * The next line without its `\n` or `\r\n`, or undefined at the end of the file. Throws a
   * TraceError for a line longer than TRACE_LINE_MAX_CHARS; the file system's errors as they come.
   */
  next(): string | undefined {
    while (this.at >= this.lines.length) {
      if (this.eof) return undefined;
      this.fill();
    }
    this.lineNo++;
    const l = this.lines[this.at++]!;
    return l.endsWith('\r') ? l.slice(0, -1) : l;
  }

  private fill(): void {
    const fd = openSync(this.path, 'r');
    let got: number;
    try {
      got = readSync(fd, this.buf, 0, CHUNK_BYTES, this.pos);
    } finally {
      closeSync(fd);
    }
    this.pos += got;
    const text = this.rest + (got > 0 ? this.dec.write(this.buf.subarray(0, got)) : this.dec.end());
    const parts = text.split('\n');
    this.rest = got > 0 ? parts.pop()! : '';
    if (got === 0) {
      this.eof = true;
      // A last line without its newline; an empty tail is not a line.
      if (parts.length && parts[parts.length - 1] === '') parts.pop();
    }
    if (this.rest.length > TRACE_LINE_MAX_CHARS)
      throw new TraceError(this.lineNo + parts.length + 1, '(line)', `longer than ${TRACE_LINE_MAX_CHARS} characters`);
    this.lines = parts;
    this.at = 0;
  }
}
