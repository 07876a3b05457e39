export { createPlatformaticPort } from './createPlatformaticPort.ts';
