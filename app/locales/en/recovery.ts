/** Filled by the screens of this area; English is the source of truth. */
export default {};
