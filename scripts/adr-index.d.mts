// Types of scripts/adr-index.mjs, for test/docs.test.ts.
export interface Adr {
  number: string;
  file: string;
  title: string;
  amendedBy: string[];
  supersededInPartBy: string[];
  supersededBy: string[];
}
export const BLOCKS: ReadonlyArray<{ from: number; to: number; subject: string }>;
export function readAdrs(dir: string): Adr[];
export function statusOf(adr: Adr, adrs: ReadonlyArray<Adr>): string;
export function blockOf(n: number): { from: number; to: number; subject: string } | undefined;
export function adrIndex(dir: string): string;
export const ADR_DIR: string;
export const ADR_INDEX: string;
export function writeAdrIndex(): void;
