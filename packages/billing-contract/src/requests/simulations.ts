/**
 * @module
 * Request bodies of `/simulations`, in wire form. Which types exist, which options each
 * scenario takes and which contradict are the core's rules; here only shapes are checked.
 */
import { z } from 'zod';
import { idOf, name } from './common.js';

const wireObject = z.record(z.string(), z.unknown());
const simulationType = z.string().min(1).max(100);

export const CreateSimulationBody = z.strictObject({
  notification_setting_id: idOf('ntfset'),
  name,
  type: simulationType,
  payload: wireObject.nullable().optional(),
  config: wireObject.nullable().optional(),
});

export const UpdateSimulationBody = z.strictObject({
  notification_setting_id: idOf('ntfset').optional(),
  name: name.optional(),
  type: simulationType.optional(),
  status: z.enum(['active', 'archived']).optional(),
  payload: wireObject.nullable().optional(),
  config: wireObject.nullable().optional(),
});
