-- wrk script: every request POSTs one new usage event (a fresh event_key from a counter),
-- cycling over the customers given in BENCH_CUSTOMERS. A response counts as accepted only
-- when it is a 202 whose body says "accepted"; done() prints one BENCH_JSON line.
local customers = {}
for id in string.gmatch(os.getenv("BENCH_CUSTOMERS") or "ctm_none", "[^,]+") do
  customers[#customers + 1] = id
end
local action = os.getenv("BENCH_ACTION") or "bench.call"
-- "now": each event's occurred_at is the time it is sent, to the millisecond, as a client that
-- reports what just happened sends it (ADR 0738); any other text is sent as every event's.
local occurredAt = os.getenv("BENCH_OCCURRED_AT") or "now"
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_usec; } bench_timeval;
int gettimeofday(bench_timeval *tv, void *tz);
]]
local timeval = ffi.new("bench_timeval")
local lastSecond, lastSecondText = -1, ""
local function occurredNow()
  ffi.C.gettimeofday(timeval, nil)
  local second = tonumber(timeval.tv_sec)
  if second ~= lastSecond then
    lastSecond, lastSecondText = second, os.date("!%Y-%m-%dT%H:%M:%S", second)
  end
  return string.format("%s.%03dZ", lastSecondText, math.floor(tonumber(timeval.tv_usec) / 1000))
end
local prefix = os.getenv("BENCH_KEY_PREFIX") or "bench"
local token = os.getenv("BENCH_TOKEN") or ""
local threads = {}
local threadCount = 0
local counter = 0

function setup(thread)
  threadCount = threadCount + 1
  thread:set("threadNumber", threadCount)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + threadNumber)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  if token ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. token
  end
  accepted = 0
  refused = 0
end

function request()
  counter = counter + 1
  local customer = customers[(counter % #customers) + 1]
  -- A random part first, as with UUID keys: inserts land all over the idempotency index.
  local body = string.format(
    '{"events":[{"event_key":"%s-%08x-%d-%d","customer_id":"%s","action":"%s","quantity":"1","occurred_at":"%s"}]}',
    prefix, math.random(0, 2147483646), threadNumber, counter, customer, action,
    occurredAt == "now" and occurredNow() or occurredAt)
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  if status == 202 and string.find(body, '"accepted"', 1, true) then
    accepted = accepted + 1
  else
    refused = refused + 1
  end
end

function done(summary, latency, requests)
  local acceptedTotal, refusedTotal = 0, 0
  for _, thread in ipairs(threads) do
    acceptedTotal = acceptedTotal + thread:get("accepted")
    refusedTotal = refusedTotal + thread:get("refused")
  end
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"accepted":%d,"refused":%d,"socketErrors":%d,"statusErrors":%d,' ..
    '"p50Us":%d,"p90Us":%d,"p99Us":%d,"p999Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, acceptedTotal, refusedTotal,
    errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
