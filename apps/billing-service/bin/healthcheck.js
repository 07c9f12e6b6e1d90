#!/usr/bin/env node
// The container's health check: exits 0 when the URL (the operations /readyz) answers 2xx
// within three seconds, 1 otherwise. Node is in the image; curl is not.
const url = process.argv[2] ?? 'http://127.0.0.1:8088/readyz';
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  process.exitCode = response.ok ? 0 : 1;
} catch {
  process.exitCode = 1;
}
