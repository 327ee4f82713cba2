# The server alone. It talks to the DynamoDB named by DYNAMODB_ENDPOINT (see docker-compose.yml),
# so the image needs no Java: the embedded DynamoDB Local starts only when that variable is unset.

# Compiles the TypeScript sources (npm run build) with the development dependencies.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY schema ./schema
COPY src ./src
RUN npm run build

# Runs the compiled JavaScript with the runtime dependencies only.
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
# The AWS SDK's switch for its Node 22 notice (the lockfile pins the SDK; see the README).
ENV AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY schema ./schema
COPY --from=build /app/dist ./dist

# In a container the server listens on every interface (the port is what Docker publishes).
ENV HOST=0.0.0.0 PORT=4000
USER node
EXPOSE 4000
# Ready: the server answers and DynamoDB answers it (GET /readyz).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", \
    "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(+!r.ok), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=128", "dist/src/main.js"]
