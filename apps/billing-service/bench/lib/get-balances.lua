-- wrk script: GET /customers/{id}/usage-balances, cycling over the customers in
-- BENCH_CUSTOMERS. done() prints one BENCH_JSON line.
local customers = {}
for id in string.gmatch(os.getenv("BENCH_CUSTOMERS") or "ctm_none", "[^,]+") do
  customers[#customers + 1] = id
end
local token = os.getenv("BENCH_TOKEN") or ""
local counter = 0

function init(args)
  if token ~= "" then
    wrk.headers["Authorization"] = "Bearer " .. token
  end
end

function request()
  counter = counter + 1
  local customer = customers[(counter % #customers) + 1]
  return wrk.format("GET", "/customers/" .. customer .. "/usage-balances")
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"accepted":%d,"refused":%d,"socketErrors":%d,"statusErrors":%d,' ..
    '"p50Us":%d,"p90Us":%d,"p99Us":%d,"p999Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.requests - errors.status, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
