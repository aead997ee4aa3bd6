import type en from "../en/tfa";
import type { Messages } from "../types";

export default {} satisfies Messages<typeof en>;
