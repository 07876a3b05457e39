export { createKafkajsPort, kafkajsPort } from './createKafkajsPort.ts';
export { kafkajsAdminPort } from './kafkajsAdmin.ts';
