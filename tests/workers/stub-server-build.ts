// Stands in for `virtual:react-router/server-build` in workerd tests (STACK.md G6).
export {};
