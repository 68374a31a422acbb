export const TILLER_VERSION = '0.1.0';
