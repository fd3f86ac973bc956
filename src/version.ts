/** navscope's version, printed by `--version` and written into plan log lines. */
export const NAVSCOPE_VERSION = "0.1.0";
