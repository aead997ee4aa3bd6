import admin from "./admin";
import common from "./common";
import errors from "./errors";
import notify from "./notify";
import recovery from "./recovery";
import tfa from "./tfa";

export default { common, admin, errors, notify, tfa, recovery };
