// The ESM entry point: the same helper as index.cjs (import { startMockAPNs } from 'mock-apns-helper').
import helper from './index.cjs';

export const { startMockAPNs, attachMockAPNs, MockAPNs, MockAPNsError, Control, durationText } = helper;
export default helper;
