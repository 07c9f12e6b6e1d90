/**
 * @module
 * The body of `POST /reports`. Which filters each report type takes is the core's rule.
 */
import { z } from 'zod';

const filter = z.strictObject({
  name: z.string().min(1).max(100),
  operator: z.string().max(10).nullable().optional(),
  value: z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]),
});

export const CreateReportBody = z.strictObject({
  type: z.string().min(1).max(100),
  filters: z.array(filter).max(20).nullable().optional(),
});
