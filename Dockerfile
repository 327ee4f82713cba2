# The server alone. It talks to the DynamoDB named by DYNAMODB_ENDPOINT (see docker-compose.yml),
# so the image needs no Java: the embedded DynamoDB Local starts only when that variable is unset.
FROM node:20-slim

WORKDIR /app
ENV NODE_ENV=production

COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

COPY tsconfig.json ./
COPY schema ./schema
COPY src ./src

USER node
EXPOSE 4000
CMD ["npm", "start"]
