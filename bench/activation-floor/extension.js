// Activates on the same event as fdref and does nothing: what activating any extension costs on this machine now.
exports.activate = () => {};
