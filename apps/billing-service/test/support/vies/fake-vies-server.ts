/**
 * @module
 * A local HTTP server speaking the wire format of the EU's VIES REST API, for the VAT id checks'
 * tests (ADR 1437): `POST /taxation_customs/vies/rest-api/check-vat-number` with JSON
 * `{ countryCode, vatNumber }`. A registered number answers `{ countryCode, vatNumber,
 * requestDate, valid: true, name, address }`; any other `{ valid: false, name: "---", address:
 * "---" }`. A country set `down` answers VIES's error envelope `{ actionSucceed: false,
 * errorWrappers: [{ error, message }] }` with the given code (`MS_UNAVAILABLE`, `TIMEOUT`, …);
 * `hang` never answers (the client's timeout must end the wait). It counts the checks it gets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVies {
  /** The REST API's base, as `--vies-url` takes it. */
  readonly baseUrl: string;
  /** Registers a number as valid, with the name and address the member state discloses. */
  register(vatId: string, trader: { readonly name: string; readonly address: string }): void;
  /** Deregisters a number: VIES then answers `valid: false`. */
  unregister(vatId: string): void;
  /** Makes every check of `countryCode` answer this error, or hang; null restores normal answers. */
  setDown(countryCode: string, error: string | 'hang' | null): void;
  /** How many checks of `vatId` (prefixed) arrived. */
  checksOf(vatId: string): number;
  close(): Promise<void>;
}

const PATH = '/taxation_customs/vies/rest-api/check-vat-number';

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startFakeVies(): Promise<FakeVies> {
  const registered = new Map<string, { name: string; address: string }>();
  const down = new Map<string, string>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== PATH) {
      send(response, 404, { actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] });
      return;
    }
    const body = (await readJson(request)) as { countryCode?: unknown; vatNumber?: unknown } | null;
    const countryCode = typeof body?.countryCode === 'string' ? body.countryCode : '';
    const vatNumber = typeof body?.vatNumber === 'string' ? body.vatNumber : '';
    if (!/^[A-Z]{2}$/.test(countryCode) || vatNumber === '') {
      send(response, 400, {
        actionSucceed: false,
        errorWrappers: [
          { error: 'INVALID_INPUT', message: 'The provided CountryCode is invalid or the VAT number is empty' },
        ],
      });
      return;
    }
    const id = `${countryCode}${vatNumber}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    const error = down.get(countryCode);
    if (error === 'hang') {
      hanging.add(response);
      return;
    }
    if (error) {
      send(response, 200, { actionSucceed: false, errorWrappers: [{ error, message: `${error} for ${countryCode}` }] });
      return;
    }
    const trader = registered.get(id);
    send(response, 200, {
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid: trader !== undefined,
      requestIdentifier: '',
      name: trader?.name ?? '---',
      address: trader?.address ?? '---',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/taxation_customs/vies/rest-api`,
    register: (vatId, trader) => registered.set(vatId, { ...trader }),
    unregister: (vatId) => registered.delete(vatId),
    setDown: (countryCode, error) => {
      if (error === null) down.delete(countryCode);
      else down.set(countryCode, error);
    },
    checksOf: (vatId) => counts.get(vatId) ?? 0,
    close: async () => {
      for (const response of hanging) response.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
