import type en from "../en/recovery";
import type { Messages } from "../types";

export default {} satisfies Messages<typeof en>;
