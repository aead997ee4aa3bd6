import admin from "./admin";
import common from "./common";
import editor from "./editor";
import errors from "./errors";
import notify from "./notify";
import profile from "./profile";
import recovery from "./recovery";
import tfa from "./tfa";
import sites from "./sites";
import users from "./users";

export default { common, editor, admin, profile, errors, notify, tfa, recovery, users, sites };
