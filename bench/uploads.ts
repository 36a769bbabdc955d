/**
 * `npm run bench:uploads -w bench` (issue 14 §5): the server's memory while it takes eight parallel 100 MB
 * uploads on `POST /api/sysFile/uploadFile`. Starts the built server (run `npm run build -w apps/server`
 * first), signs in as `admin`, and sends two rounds of generated uploads over 127.0.0.1 (each body is made
 * chunk by chunk as it is sent, never held whole): first with the default `sys_file_max_size_mb` of 50,
 * so every upload is refused (D8002), then with the limit raised to 200, so every upload is stored. Samples
 * the server's VmRSS every 50 ms and prints it before, at its peak and after each round, and the process
 * peak (VmHWM). Bounded: each round is eight requests; the run stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { launchShuzhi } from '../e2e/server.ts';
import { signIn } from './sign-in.ts';

const MB = 1024 * 1024;
const PARALLEL = Number(process.env.BENCH_UPLOADS ?? 8);
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 100);
const CHUNK = 256 * 1024;

/** Resident memory of a process in MB (VmRSS), or its peak so far (VmHWM); null off Linux. */
function memoryOf(pid: number | null, key: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  if (pid === null) return null;
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** A multipart body with one PDF of `size` bytes, generated as it is read: one random chunk reused. */
function uploadBody(boundary: string, size: number): { stream: Readable; length: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = randomBytes(CHUNK);
  const fillerBytes = size - '%PDF-1.4\n'.length;
  function* pieces() {
    yield head;
    for (let sent = 0; sent < fillerBytes; sent += CHUNK)
      yield filler.subarray(0, Math.min(CHUNK, fillerBytes - sent));
    yield tail;
  }
  return {
    stream: Readable.from(pieces(), { objectMode: false }),
    length: head.length + fillerBytes + tail.length,
  };
}

function upload(baseUrl: string, token: string, size: number): Promise<string> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const body = uploadBody(boundary, size);
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/sysFile/uploadFile', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number | string };
        resolve(String(answer.code));
      });
    });
    req.on('error', reject);
    body.stream.pipe(req);
  });
}

const mb = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(0)} MB`);

async function round(name: string, baseUrl: string, token: string, pid: number | null): Promise<void> {
  const before = memoryOf(pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(pid) ?? 0);
  }, 50);
  const started = Date.now();
  const codes = await Promise.all(
    Array.from({ length: PARALLEL }, () => upload(baseUrl, token, SIZE_MB * MB)),
  );
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  // Give the server a moment to let go of what the requests held.
  await new Promise((r) => setTimeout(r, 2000));
  const after = memoryOf(pid);
  const tally = [...new Set(codes)]
    .map((code) => `${codes.filter((c) => c === code).length}× ${code}`)
    .join(', ');
  console.log(
    `${name.padEnd(34)} ${tally.padEnd(10)} ${seconds.toFixed(1).padStart(6)} s   RSS before ${mb(before)}, ` +
      `peak ${mb(peak)}, after ${mb(after)}`,
  );
}

const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
try {
  const token = await signIn(shuzhi.baseUrl);
  console.log(
    `\n${PARALLEL} parallel uploads of ${SIZE_MB} MB to /api/sysFile/uploadFile, Node ${process.version}\n`,
  );
  await round('limit 50 MB (refused)', shuzhi.baseUrl, token, shuzhi.pid);
  const raised = await fetch(`${shuzhi.baseUrl}/api/sysConfig/batchUpdate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ code: 'sys_file_max_size_mb', value: String(SIZE_MB * 2) }]),
  });
  if (((await raised.json()) as { code: number }).code !== 200)
    throw new Error('could not raise sys_file_max_size_mb');
  await round(`limit ${SIZE_MB * 2} MB (stored)`, shuzhi.baseUrl, token, shuzhi.pid);
  console.log(`\nRESULT server peak (VmHWM) ${mb(memoryOf(shuzhi.pid, 'VmHWM'))}`);
} finally {
  await shuzhi.stop();
}
