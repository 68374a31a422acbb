// Ink imports react-devtools-core only when DEV is set; the bundle must not pull it in.
export default { initialize() {}, connectToDevTools() {} };
