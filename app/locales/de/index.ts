import common from "./common";
import errors from "./errors";
import notify from "./notify";

export default { common, errors, notify };
